import { z } from 'zod';
import { visibilityOf } from '../../access/caller.js';
import type { Services } from '../../services/index.js';
import { unitKinds } from '../../services/registry/units.js';
import type { BranchTable } from '../../store/schema.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { presentRecord } from '../presenters/registry.js';
import { signedIn } from './evidence.js';

const tags = ['places'];
const idParams = z.object({ id: z.string().min(1).max(100) });

function presentUnit(u: BranchTable) {
  return {
    id: u.id,
    nameEn: u.name_en,
    nameAr: u.name_ar,
    number: u.number,
    kind: u.kind,
    agency: u.agency,
    governorateId: u.governorate_id,
    parentId: u.parent_id,
    notes: u.notes,
    createdAt: u.created_at,
    createdBy: u.created_by,
  };
}

/** The gazetteer's units as entities: list, one unit with what names it, add a unit, an alias, a parent. */
export async function unitRoutes(app: App, services: Services): Promise<void> {
  const { units } = services;

  app.get(
    '/api/units',
    {
      config: { access: 'places:read' },
      schema: {
        summary: 'Every unit (branches, prisons, hospitals, directorates, agencies) with aliases',
        tags,
      },
    },
    async () => ({ items: await units.list() }),
  );

  app.get(
    '/api/units/:id',
    {
      config: { access: 'places:read' },
      schema: {
        summary:
          'A unit: aliases (who added them), parents and children, and the records, events and evidence labels that name it (each with its own permission; records audited)',
        tags,
        params: idParams,
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const v = await units.view(request.params.id, caller);
      const viewer = visibilityOf(caller);
      return {
        ...presentUnit(v.unit),
        aliases: v.aliases,
        ancestors: v.ancestors.map(presentUnit),
        children: v.children.map(presentUnit),
        counts: v.counts,
        records: v.records.map((r) => presentRecord(r, viewer)),
        events: v.events.map((e) => ({
          id: e.id,
          type: e.type,
          dateStart: e.date_start,
          personId: e.person_id,
          recordId: e.record_id,
          place: e.place,
        })),
        labels: v.labels,
      };
    },
  );

  app.post(
    '/api/units',
    {
      config: { access: 'places:write' },
      schema: {
        summary: 'Add a unit, with its names in both scripts (each also an alias) and optionally its parent',
        tags,
        body: z.object({
          nameEn: z.string().trim().min(1).max(300),
          nameAr: z.string().trim().min(1).max(300),
          kind: z.enum(unitKinds),
          number: z.number().int().min(0).max(1_000_000).nullish(),
          parentId: z.string().min(1).max(100).nullish(),
          governorateId: z.string().min(1).max(100).nullish(),
          notes: z.string().max(2000).nullish(),
        }),
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentUnit(await units.create(request.body, signedIn(request)))),
  );

  app.post(
    '/api/units/:id/aliases',
    {
      config: { access: 'places:write' },
      schema: {
        summary:
          'Add a spelling of a unit (Arabic or Latin); later imports resolve it; refused if it names another',
        tags,
        params: idParams,
        body: z.object({ alias: z.string().trim().min(1).max(300) }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ aliases: await units.addAlias(request.params.id, request.body.alias, signedIn(request)) }),
  );

  app.post(
    '/api/units/:id/parent',
    {
      config: { access: 'places:write' },
      schema: {
        summary: 'Place a unit under another (branch → directorate → agency), or under none',
        tags,
        params: idParams,
        body: z.object({ parentId: z.string().min(1).max(100).nullable() }),
      },
    },
    async (request) => {
      await units.setParent(request.params.id, request.body.parentId, callerOf(request));
      return { id: request.params.id, parentId: request.body.parentId };
    },
  );
}
