import { z } from 'zod';
import { caseStatuses } from '../../domain/case-status.js';
import { resolveBranch, resolveGovernorate } from '../../gazetteer/index.js';
import type { PersonRecordFields } from '../../linkage/record.js';
import type { AppContext } from '../../services/context.js';
import { hiddenAmong } from '../../services/intake/intake.js';
import { recordKinds } from '../../services/registry/record-fields.js';
import { CursorError } from '../../services/registry/record-search.js';
import type { RecordInput } from '../../services/registry/registry.js';
import { PlaceRepository } from '../../store/repositories/places.js';
import type { RecordFilter } from '../../store/repositories/records.js';
import { audit } from '../access.js';
import type { App } from '../app.js';
import { presentAssertion, presentRecord, viewerOf } from '../presenters/registry.js';
import { Problem } from '../problems.js';
import { actorId, answering, claimFields, registryServices } from './registry-support.js';

const text = z.string().max(2000);
const dateText = z.string().max(40);

/** A record as the API takes it: the person-record CSV's columns in camelCase, all text as the source gave it. */
export const recordBody = z.object({
  sourceId: z.string().min(1),
  kind: z.enum(recordKinds),
  externalId: z.string().min(1).max(200).optional(),
  fullName: text.optional(),
  firstName: text.optional(),
  fatherName: text.optional(),
  grandfatherName: text.optional(),
  familyName: text.optional(),
  motherName: text.optional(),
  sex: z.string().max(20).optional(),
  birthDate: dateText.optional(),
  birthYear: z.union([z.string().max(10), z.number().int()]).optional(),
  governorate: z.string().max(200).optional(),
  placeOfOrigin: text.optional(),
  arrestDate: dateText.optional(),
  arrestingBranch: z.string().max(200).optional(),
  detaineeNumber: z.string().max(100).optional(),
  deathDate: dateText.optional(),
  forensicReportNumber: z.string().max(100).optional(),
  notes: text.optional(),
});
type RecordBody = z.infer<typeof recordBody>;

export function recordInput(body: RecordBody): RecordInput {
  const fields: PersonRecordFields = {
    full_name: body.fullName,
    first_name: body.firstName,
    father_name: body.fatherName,
    grandfather_name: body.grandfatherName,
    family_name: body.familyName,
    mother_name: body.motherName,
    sex: body.sex,
    birth_date: body.birthDate,
    birth_year: body.birthYear === undefined ? undefined : String(body.birthYear),
    governorate: body.governorate,
    place_of_origin: body.placeOfOrigin,
    arrest_date: body.arrestDate,
    arresting_branch: body.arrestingBranch,
    detainee_number: body.detaineeNumber,
    death_date: body.deathDate,
    forensic_report_number: body.forensicReportNumber,
    notes: body.notes,
  };
  for (const k of Object.keys(fields) as (keyof PersonRecordFields)[])
    if (fields[k] === undefined) delete fields[k];
  return { sourceId: body.sourceId, kind: body.kind, externalId: body.externalId ?? null, fields };
}

const idParams = z.object({ id: z.string().min(1).max(100) });

const searchQuery = z.object({
  q: z.string().max(300).optional(),
  governorate: z.string().max(200).optional(),
  branch: z.string().max(200).optional(),
  source: z.string().max(200).optional(),
  status: z.enum(caseStatuses).optional(),
  from: z
    .string()
    .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'a date YYYY, YYYY-MM or YYYY-MM-DD')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'a date YYYY, YYYY-MM or YYYY-MM-DD')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});

/** Places and sources named in a query, by id or any alias; an unknown one is a 400 naming the parameter. */
async function resolveFilter(ctx: AppContext, query: z.infer<typeof searchQuery>): Promise<RecordFilter> {
  const filter: RecordFilter = {};
  const places = new PlaceRepository(ctx.store.db);
  const unknown = (field: string, value: string) =>
    new Problem('validation_failed', `no ${field} is known as ${JSON.stringify(value)}`, {
      errors: [{ path: `querystring.${field}`, message: 'unknown' }],
    });
  if (query.governorate) {
    const id =
      resolveGovernorate(query.governorate)?.id ?? (await places.findGovernorateByAlias(query.governorate));
    if (!id) throw unknown('governorate', query.governorate);
    filter.governorateId = id;
  }
  if (query.branch) {
    const id = resolveBranch(query.branch)?.id ?? (await places.findBranchByAlias(query.branch));
    if (!id) throw unknown('branch', query.branch);
    filter.branchId = id;
  }
  if (query.source) {
    const source = await ctx.store.db
      .selectFrom('sources')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', query.source as string), eb('name', '=', query.source as string)]))
      .executeTakeFirst();
    if (!source) throw unknown('source', query.source);
    filter.sourceId = source.id;
  }
  if (query.from) filter.from = query.from;
  if (query.to) filter.to = query.to;
  return filter;
}

export async function recordRoutes(app: App, ctx: AppContext): Promise<void> {
  const { registry, search } = registryServices(ctx);

  app.get(
    '/api/records',
    {
      config: { access: 'records:read' },
      schema: {
        summary: 'Search records by name (Arabic or Latin) and filters, or list them newest first',
        description:
          'Names are matched through their keys and ranked by part similarity; each hit says why. Filters: governorate and branch by id or any alias, source by id or name, derived case status, arrest date range. Every search is audited.',
        tags: ['records'],
        querystring: searchQuery,
      },
    },
    async (request) => {
      const query = request.query;
      const filter = await resolveFilter(ctx, query);
      const result = await search
        .search({
          ...(query.q ? { q: query.q } : {}),
          filter,
          ...(query.status ? { status: query.status } : {}),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        })
        .catch((error: unknown) => {
          if (error instanceof CursorError) {
            throw new Problem('validation_failed', error.message, {
              errors: [{ path: 'querystring.cursor', message: error.message }],
            });
          }
          throw error;
        });
      await audit(ctx, request, {
        action: 'search',
        subjectType: 'record',
        details: {
          q: query.q ?? null,
          governorate: query.governorate ?? null,
          branch: query.branch ?? null,
          source: query.source ?? null,
          status: query.status ?? null,
          from: query.from ?? null,
          to: query.to ?? null,
          cursor: query.cursor ?? null,
          results: result.items.length,
        },
      });
      const viewer = viewerOf(request.actor);
      const hidden = await hiddenAmong(
        ctx.store.db,
        request.actor?.role ?? '',
        result.items.map((hit) => hit.record),
      );
      return {
        items: result.items
          .filter((hit) => !hidden.has(hit.record.id))
          .map((hit) => ({
            ...presentRecord(hit.record, viewer),
            ...(hit.score === undefined ? {} : { score: hit.score, why: hit.why ?? [] }),
          })),
        ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
      };
    },
  );

  app.get(
    '/api/records/:id',
    {
      config: { access: 'records:read' },
      schema: {
        summary: 'One record, with the fields as the source gave them (audited)',
        tags: ['records'],
        params: idParams,
      },
    },
    async (request) => {
      const record = await registry.record(request.params.id);
      // A record whose family withdrew consent to internal use is, for this role, not there.
      if (!record || (await hiddenAmong(ctx.store.db, request.actor?.role ?? '', [record])).size > 0) {
        throw new Problem('not_found', `no record ${request.params.id}`);
      }
      await audit(ctx, request, { action: 'read', subjectType: 'record', subjectId: record.id });
      return presentRecord(record, viewerOf(request.actor), { original: true });
    },
  );

  app.post(
    '/api/records',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Create a record: names parsed and normalised, places resolved, name keys stored',
        tags: ['records'],
        body: recordBody,
      },
    },
    async (request, reply) => {
      const made = await answering(() => registry.createRecord(recordInput(request.body), actorId(request)));
      return reply.status(201).send({ id: made.id, warnings: made.warnings });
    },
  );

  app.post(
    '/api/records/bulk',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Create up to 1,000 records, answering per item { index, ok, id?, error? }',
        tags: ['records'],
        body: z.object({ items: z.array(z.unknown()).min(1).max(1000) }),
      },
    },
    async (request) => {
      // Each item is validated on its own, so one bad item is answered as such instead of failing the batch.
      const parsed = request.body.items.map((item) => recordBody.safeParse(item));
      const valid: { index: number; input: RecordInput }[] = [];
      const answers: unknown[] = new Array(parsed.length);
      parsed.forEach((p, index) => {
        if (p.success) valid.push({ index, input: recordInput(p.data) });
        else
          answers[index] = {
            index,
            ok: false,
            error: p.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; '),
          };
      });
      const results = await registry.createRecords(
        valid.map((v) => v.input),
        actorId(request),
      );
      results.forEach((r, i) => {
        const index = (valid[i] as { index: number }).index;
        answers[index] = r.ok
          ? { index, ok: true, id: r.id, ...(r.warnings ? { warnings: r.warnings } : {}) }
          : { index, ok: false, error: r.error };
      });
      return { items: answers };
    },
  );

  app.post(
    '/api/records/:id/assertions',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Add a claim about a record (append-only; the case status is derived from claims)',
        tags: ['records'],
        params: idParams,
        body: z.object(claimFields),
      },
    },
    async (request, reply) => {
      const made = await answering(() =>
        registry.addAssertion({ ...request.body, recordId: request.params.id }, actorId(request)),
      );
      return reply.status(201).send(presentAssertion(made));
    },
  );
}
