import { z } from 'zod';
import { can } from '../../access/caller.js';
import { consentPurposes } from '../../domain/consent.js';
import { exportFormats, exportKinds } from '../../exchange/export-formats.js';
import type { Services } from '../../services/index.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { attachment, signedIn } from './evidence.js';

const id = z.object({ id: z.string().min(1).max(100) });
const tags = ['exports'];

const what = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bundle'),
    scope: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('person'), personId: z.string().min(1).max(100) }),
      z.object({
        kind: z.literal('evidence'),
        evidenceIds: z.array(z.string().min(1).max(100)).min(1).max(5000),
      }),
      z.object({ kind: z.literal('ingest_run'), ingestRunId: z.string().min(1).max(100) }),
    ]),
  }),
  z.object({ kind: z.literal('export'), what: z.enum(exportKinds), format: z.enum(exportFormats) }),
]);

/**
 * Export requests: an investigator asks with a reason, another person approves, the file is built and fetched by the
 * requester until it expires; every step audited (docs/exchange.md).
 */
export async function exportRoutes(app: App, services: Services): Promise<void> {
  const { exports } = services;
  app.addHook('onClose', async () => exports.settle());
  const approving = (request: Parameters<typeof callerOf>[0]) => can(callerOf(request), 'exports:approve');

  app.post(
    '/api/exports',
    {
      config: { access: 'exports:request' },
      schema: {
        summary:
          'Ask for a court bundle (a person, evidence items, an ingest run) or a data export, with a reason',
        tags,
        body: z.object({
          what,
          purpose: z.enum(consentPurposes),
          reason: z.string().trim().min(10).max(2000),
        }),
      },
    },
    async (request, reply) => reply.status(201).send(await exports.request(request.body, signedIn(request))),
  );

  app.get(
    '/api/exports',
    {
      config: { access: 'signed_in' },
      schema: { summary: 'Your export requests, and those awaiting your decision', tags },
    },
    async (request) => {
      const caller = signedIn(request);
      const mayAsk = can(caller, 'exports:request');
      if (!mayAsk && !approving(request)) return { items: [] };
      return { items: await exports.list(caller, { approving: approving(request) }) };
    },
  );

  app.get(
    '/api/exports/:id',
    { config: { access: 'signed_in' }, schema: { summary: 'One export request', tags, params: id } },
    async (request) => exports.get(request.params.id, signedIn(request), { approving: approving(request) }),
  );

  for (const [verb, approve] of [
    ['approve', true],
    ['refuse', false],
  ] as const) {
    app.post(
      `/api/exports/:id/${verb}`,
      {
        config: { access: 'exports:approve' },
        schema: {
          summary: `${approve ? 'Approve' : 'Refuse'} another person's export request${approve ? ' (its file is then built)' : ''}`,
          tags,
          params: id,
          body: z.object({ note: z.string().max(2000).optional() }).optional(),
        },
      },
      async (request) =>
        exports.decide(request.params.id, approve, request.body?.note ?? null, signedIn(request)),
    );
  }

  app.get(
    '/api/exports/:id/file',
    {
      config: { access: 'exports:request' },
      schema: {
        summary: "The approved export's file, for its requester, until it expires (audited)",
        tags,
        params: id,
      },
    },
    async (request, reply) => {
      const file = await exports.fetch(request.params.id, signedIn(request));
      return reply
        .type(file.mediaType)
        .header('content-length', file.bytes)
        .header('content-disposition', attachment(file.name, file.name))
        .header('x-content-sha256', file.sha256)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
}
