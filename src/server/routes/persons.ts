import { z } from 'zod';
import { visibilityOf } from '../../access/caller.js';
import type { Services } from '../../services/index.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { presentPerson } from '../presenters/registry.js';
import { Problem } from '../problems.js';
import { actorId } from './registry-support.js';

const id = z.string().min(1).max(100);

function presentLink(l: {
  id: string;
  recordId: string;
  personId: string;
  basis: string;
  linkedAt: string;
  linkedBy: string | null;
  note: string | null;
  unlinkedAt: string | null;
  unlinkReason: string | null;
}) {
  return {
    id: l.id,
    recordId: l.recordId,
    personId: l.personId,
    basis: l.basis,
    linkedAt: l.linkedAt,
    linkedBy: l.linkedBy,
    note: l.note,
    unlinkedAt: l.unlinkedAt,
    unlinkReason: l.unlinkReason,
  };
}

/** Persons: the view built from linked records, and linking with provenance (records are never edited). */
export async function personRoutes(app: App, services: Services): Promise<void> {
  const { registry } = services;

  app.get(
    '/api/persons/:id',
    {
      config: { access: 'persons:read' },
      schema: {
        summary:
          'A person: derived status, linked records with their sources, events, relations, claims, identifications (audited)',
        tags: ['persons'],
        params: z.object({ id }),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return presentPerson(await registry.readPerson(request.params.id, caller), visibilityOf(caller));
    },
  );

  app.get(
    '/api/persons/explain',
    {
      config: { access: 'persons:link' },
      schema: {
        summary:
          'The match-weight waterfall of two records under the model in use: the preview before a link, merge or split (both records read, audited)',
        tags: ['persons'],
        querystring: z.object({ a: id, b: id }),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      // Each record is read as its caller may read it: consent hiding and the audit apply to a preview too.
      await registry.readRecord(request.query.a, caller);
      await registry.readRecord(request.query.b, caller);
      const explained = await services.review.explainRecords(request.query.a, request.query.b);
      if (!explained) throw new Problem('not_found', 'no such records');
      return explained;
    },
  );

  app.post(
    '/api/persons',
    {
      config: { access: 'persons:link' },
      schema: {
        summary: 'Create a person from records (each moved from its current person, with provenance)',
        tags: ['persons'],
        body: z.object({
          recordIds: z.array(id).min(1).max(100),
          note: z.string().max(4000).optional(),
          force: z.boolean().optional(),
        }),
      },
    },
    async (request, reply) => {
      const made = await registry.createPerson(request.body.recordIds, actorId(request), {
        note: request.body.note ?? null,
        force: request.body.force ?? false,
      });
      return reply.status(201).send({ id: made.id, links: made.links.map(presentLink) });
    },
  );

  app.post(
    '/api/persons/:id/links',
    {
      config: { access: 'persons:link' },
      schema: {
        summary:
          'Link a record to the person; refused (409) when the persons are recorded as relatives, unless forced with a note',
        tags: ['persons'],
        params: z.object({ id }),
        body: z.object({
          recordId: id,
          note: z.string().max(4000).optional(),
          force: z.boolean().optional(),
        }),
      },
    },
    async (request, reply) => {
      const link = await registry.link(request.params.id, request.body.recordId, actorId(request), {
        note: request.body.note ?? null,
        force: request.body.force ?? false,
      });
      return reply.status(201).send(presentLink(link));
    },
  );

  app.post(
    '/api/persons/:id/links/:linkId/undo',
    {
      config: { access: 'persons:link' },
      schema: {
        summary:
          'Undo a link: close it with a reason and give the record back to the person it was moved from',
        tags: ['persons'],
        params: z.object({ id, linkId: id }),
        body: z.object({ reason: z.string().trim().min(1).max(4000) }),
      },
    },
    async (request) => {
      const done = await registry.undoLink(
        request.params.id,
        request.params.linkId,
        actorId(request),
        request.body.reason,
      );
      return {
        closed: presentLink(done.closed),
        ...(done.restored ? { restored: presentLink(done.restored) } : {}),
      };
    },
  );
}
