import { z } from 'zod';
import { visibilityOf } from '../../access/caller.js';
import { caseStatuses } from '../../domain/case-status.js';
import {
  apiNames,
  type PersonRecordColumn,
  type PersonRecordFields,
  personRecordColumns,
  recordKinds,
} from '../../domain/person-record.js';
import type { Services } from '../../services/index.js';
import type { RecordInput } from '../../services/registry/registry.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { presentAssertion, presentEvent, presentRecord } from '../presenters/registry.js';
import { Problem } from '../problems.js';
import { actorId, claimFields } from './registry-support.js';

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

/** The fields of a record body, by their person-record columns (the camelCase names come from one table). */
const bodyColumns = personRecordColumns.filter(
  (c): c is Exclude<PersonRecordColumn, 'record_id' | 'source'> => c !== 'record_id' && c !== 'source',
);

export function recordInput(body: RecordBody): RecordInput {
  const fields: PersonRecordFields = {};
  for (const column of bodyColumns) {
    const value = body[apiNames[column] as keyof RecordBody];
    if (value !== undefined) fields[column] = String(value);
  }
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

export async function recordRoutes(app: App, services: Services): Promise<void> {
  const { registry, search } = services;

  /** A search or a page of records, as both routes answer it (the name, if any, came in the body). */
  async function answer(query: z.infer<typeof searchQuery>, caller: ReturnType<typeof callerOf>) {
    const result = await search.searchFor(
      {
        ...(query.q ? { q: query.q } : {}),
        filter: {
          ...(query.governorate ? { governorate: query.governorate } : {}),
          ...(query.branch ? { branch: query.branch } : {}),
          ...(query.source ? { source: query.source } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        },
        ...(query.status ? { status: query.status } : {}),
        limit: query.limit,
        ...(query.cursor ? { cursor: query.cursor } : {}),
      },
      caller,
    );
    const viewer = visibilityOf(caller);
    return {
      items: result.items.map((hit) => ({
        ...presentRecord(hit.record, viewer),
        ...(hit.score === undefined
          ? {}
          : { score: hit.score, why: hit.why ?? [], reasons: hit.reasons ?? [] }),
      })),
      ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
    };
  }

  app.get(
    '/api/records',
    {
      config: { access: 'records:read' },
      schema: {
        summary: 'List records newest first, by filters; a search by name is POST /api/records/search',
        description:
          'Filters: governorate and branch by id or any alias, source by id or name, derived case status, arrest date range. A name (q) is refused here: names in URLs end up in proxy and browser logs. Every listing is audited.',
        tags: ['records'],
        querystring: searchQuery,
      },
    },
    async (request) => {
      if (request.query.q !== undefined) {
        throw new Problem(
          'bad_request',
          'q: names do not travel in URLs (proxy logs keep them); send the search as POST /api/records/search',
        );
      }
      return answer(request.query, callerOf(request));
    },
  );

  app.post(
    '/api/records/search',
    {
      config: { access: 'records:read' },
      schema: {
        summary: 'Search records by name (Arabic or Latin) and filters, the query in the body',
        description:
          'Names are matched through their keys and ranked by part similarity; each hit says why. Filters: governorate and branch by id or any alias, source by id or name, derived case status, arrest date range. Every search is audited.',
        tags: ['records'],
        body: searchQuery,
      },
    },
    async (request) => answer(request.body, callerOf(request)),
  );

  app.get(
    '/api/records/:id',
    {
      config: { access: 'records:read' },
      schema: {
        summary:
          'One record, with the fields as the source gave them, its claims, the events it reports and its links (audited)',
        tags: ['records'],
        params: idParams,
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const page = await registry.readRecordPage(request.params.id, caller);
      return {
        ...presentRecord(page.record, visibilityOf(caller), { original: true }),
        assertions: page.assertions.map(presentAssertion),
        events: page.events.map(presentEvent),
        links: page.links.map((l) => ({
          id: l.id,
          personId: l.personId,
          basis: l.basis,
          linkedAt: l.linkedAt,
          linkedBy: l.linkedBy,
          decisionId: l.decisionId,
          note: l.note,
          unlinkedAt: l.unlinkedAt,
          unlinkedBy: l.unlinkedBy,
          unlinkReason: l.unlinkReason,
        })),
      };
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
      const made = await registry.createRecord(recordInput(request.body), actorId(request));
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
      const made = await registry.addAssertion(
        { ...request.body, recordId: request.params.id },
        actorId(request),
      );
      return reply.status(201).send(presentAssertion(made));
    },
  );
}
