import { z } from 'zod';
import { recordKinds } from '../../domain/person-record.js';
import { textEncodings } from '../../exchange/text-decode.js';
import type { Services } from '../../services/index.js';
import type { ImportTable } from '../../store/schema.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { actorId } from './registry-support.js';

const maxCsvBytes = 20 * 1024 * 1024;

/** CSV imports over HTTP: started in the background, followed by their progress. docs/import.md. */
export async function importRoutes(app: App, services: Services): Promise<void> {
  // A closing server lets the imports it runs finish their batches first.
  app.addHook('onClose', async () => services.imports.settle());
  // The CSV body parser (and its larger limit) belongs to this route alone: registered in its own scope.
  await app.register(async (scoped: App) => {
    scoped.addContentTypeParser(
      'text/csv',
      // Bytes, not a string: the service decodes them (UTF-8, UTF-16, Windows-1256) or refuses them, naming the
      // line and byte, before anything is written.
      { parseAs: 'buffer', bodyLimit: maxCsvBytes },
      (_request, body, done) => done(null, body),
    );
    scoped.post(
      '/api/imports',
      {
        config: { access: 'records:write' },
        bodyLimit: maxCsvBytes,
        schema: {
          summary:
            'Import a person-record CSV (body text/csv, at most 20 MB) in the background; answers 202 { id }',
          tags: ['imports'],
          querystring: z.object({
            kind: z.enum(recordKinds),
            source: z.string().trim().min(1).max(300).optional(),
            fileName: z.string().trim().min(1).max(300).optional(),
            dryRun: z.enum(['true', 'false', '1', '0']).optional(),
            encoding: z.enum(textEncodings).optional(),
          }),
        },
      },
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body) || !/^text\/csv\b/.test(request.headers['content-type'] ?? '')) {
          throw new Problem('unsupported_media_type', 'send the file as text/csv');
        }
        const q = request.query;
        const started = await services.imports.start(request.body, {
          kind: q.kind,
          sourceName: q.source ?? null,
          fileName: q.fileName ?? 'upload.csv',
          dryRun: q.dryRun === 'true' || q.dryRun === '1',
          actor: actorId(request),
          ...(q.encoding ? { encoding: q.encoding } : {}),
        });
        return reply.status(202).send({ id: started.id });
      },
    );
  });

  app.get(
    '/api/imports',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Imports, newest first: { items: [progress without the error list], next }',
        tags: ['imports'],
        querystring: z.object({
          before: z.string().min(1).max(100).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
      },
    },
    async (request) => {
      const { before, limit } = request.query;
      const rows = await services.imports.page(before, limit + 1);
      const items = rows.slice(0, limit).map(({ errors: _errors, ...row }) => presentImport(row));
      return { items, next: rows.length > limit ? (items[items.length - 1]?.id ?? null) : null };
    },
  );

  app.get(
    '/api/imports/:id',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Progress of an import: { id, status, done, total, created, skipped, errors }',
        tags: ['imports'],
        params: z.object({ id: z.string().min(1).max(100) }),
      },
    },
    async (request) => {
      const row = await services.imports.get(request.params.id);
      if (!row) throw new Problem('not_found', `no import ${request.params.id}`);
      // Its records' linking and matching (the tracing loop takes them once they are stored).
      const linking = await services.tracing.importProgress(row.id);
      return { ...presentImport(row), linking, errors: JSON.parse(row.errors) as unknown[] };
    },
  );
}

function presentImport(row: Omit<ImportTable, 'errors'>) {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    sourceName: row.source_name,
    fileName: row.file_name,
    dryRun: row.dry_run === 1,
    done: row.done,
    total: row.total,
    created: row.created,
    skipped: row.skipped,
    errorCount: row.error_count,
    failure: row.failure,
    createdAt: row.created_at,
    createdBy: row.created_by,
    finishedAt: row.finished_at,
  };
}
