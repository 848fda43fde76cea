import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import type { Upload } from '../../store/repositories/uploads.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { signedIn } from './evidence.js';

const tags = ['evidence'];
const idParams = z.object({ id: z.string().min(1).max(100) });

function presentUpload(upload: Upload, found: number) {
  return {
    id: upload.id,
    status: upload.status,
    createdAt: upload.createdAt,
    files: upload.files,
    bytes: upload.bytes,
    sourceName: upload.sourceName,
    note: upload.note,
    runId: upload.runId,
    // Progress while ingesting: places the run recorded, of the files sent (a zip's files count once unpacked).
    done: upload.status === 'finished' ? (upload.outcomes?.length ?? found) : found,
    total: upload.status === 'finished' ? (upload.outcomes?.length ?? upload.files) : upload.files,
    outcomes: upload.outcomes,
    failure: upload.failure,
    finishedAt: upload.finishedAt,
  };
}

/**
 * Browser uploads (documenters): start one, send each file as its own request body (application/octet-stream,
 * its path in the query), then ingest them all with the same code as `athar ingest`, and follow the outcomes.
 */
export async function uploadRoutes(app: App, services: Services): Promise<void> {
  const { uploads } = services;
  app.addHook('onClose', async () => uploads.settle());

  app.post(
    '/api/uploads',
    {
      config: { access: 'evidence:ingest' },
      schema: { summary: 'Start a browser upload; answers its id and the size limit', tags },
    },
    async (request, reply) => reply.status(201).send(await uploads.start(signedIn(request))),
  );

  app.get(
    '/api/uploads',
    {
      config: { access: 'evidence:ingest' },
      schema: { summary: 'Your uploads, newest first', tags },
    },
    async (request) => ({
      items: (await uploads.list(signedIn(request))).map((u) => presentUpload(u, 0)),
    }),
  );

  // The file body is streamed to the staging folder, never buffered: its parser belongs to this route alone.
  await app.register(async (scoped: App) => {
    scoped.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    scoped.put(
      '/api/uploads/:id/files',
      {
        config: { access: 'evidence:ingest' },
        schema: {
          summary:
            'Send one file of an upload (body: its bytes, application/octet-stream; path: its folder and name)',
          tags,
          params: idParams,
          querystring: z.object({ path: z.string().min(1).max(4096) }),
        },
      },
      async (request, reply) => {
        if (!/^application\/octet-stream\b/.test(request.headers['content-type'] ?? '')) {
          throw new Problem('unsupported_media_type', 'send the file as application/octet-stream');
        }
        const received = await uploads.receive(
          request.params.id,
          request.query.path,
          request.body as Readable,
          signedIn(request),
        );
        return reply.status(201).send(received);
      },
    );
  });

  app.post(
    '/api/uploads/:id/ingest',
    {
      config: { access: 'evidence:ingest' },
      schema: {
        summary: 'Ingest the files sent (zips unpacked), in the background; answers 202 and the upload',
        tags,
        params: idParams,
        body: z
          .object({
            source: z.string().trim().max(300).optional(),
            note: z.string().trim().max(2000).optional(),
          })
          .optional(),
      },
    },
    async (request, reply) => {
      const upload = await uploads.ingest(request.params.id, request.body ?? {}, signedIn(request));
      return reply.status(202).send(presentUpload(upload, 0));
    },
  );

  app.get(
    '/api/uploads/:id',
    {
      config: { access: 'evidence:ingest' },
      schema: { summary: 'An upload: status, progress and each file’s outcome', tags, params: idParams },
    },
    async (request) => {
      const { upload, found } = await uploads.get(request.params.id, signedIn(request));
      return presentUpload(upload, found);
    },
  );
}
