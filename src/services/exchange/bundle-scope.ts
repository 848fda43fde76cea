import { DomainError } from '../../domain/errors.js';
import type { BundleScope } from '../../exchange/bundle-layout.js';
import { ReportRepository } from '../../store/repositories/reports.js';
import { slices } from '../../store/slices.js';
import type { Db } from '../../store/store.js';

/**
 * What a court bundle holds, read from the database as stored rows: the evidence items of the scope with their
 * annotations, body labels, identifications, custody history and locations, and — for a person — the person's
 * records, links, events, claims, relations, identifications and the decisions behind the links. Records of
 * family reports whose consent does not cover the bundle's purpose are left out (counted, never named).
 */

/** A bundle that cannot be built as asked: a refusal in the domain's terms, with the bundle's own code. */
export class BundleError extends DomainError {
  constructor(
    message: string,
    readonly code: 'not_found' | 'forbidden' | 'bad_request' | 'empty',
  ) {
    super(code === 'not_found' ? 'not_found' : code === 'forbidden' ? 'forbidden' : 'invalid', message);
    this.name = 'BundleError';
  }
}

type Row = Record<string, unknown>;

export interface ItemRows {
  item: Row & {
    id: string;
    sha256: string;
    graphic: number;
    media_type: string;
    size_bytes: number;
    original_name: string | null;
  };
  annotations: Row[];
  bodyLabels: Row[];
  bodies: Row[];
  identifications: Row[];
  custody: (Row & { id: string; ledger_index: number | null })[];
  locations: Row[];
}

export interface PersonRows {
  person: Row;
  records: Row[];
  links: Row[];
  events: Row[];
  assertions: Row[];
  relations: Row[];
  identifications: Row[];
  decisions: Row[];
}

export interface ScopeRows {
  items: ItemRows[];
  person: PersonRows | null;
  /** Records the items name (annotations) outside a person scope, consent allowing. */
  records: Row[];
  withheldRecords: number;
}

/** Identification statuses whose evidence a person's bundle carries: the ones two reviewers confirmed. */
const identifiedStatuses = ['confirmed', 'family_informed'];
const chunk = 500;

async function inChunks<T>(ids: readonly string[], read: (ids: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const part of slices(ids, chunk)) out.push(...(await read(part)));
  return out;
}

/** The evidence ids a scope names; refuses a scope that names nothing that exists. */
export async function scopeEvidenceIds(db: Db, scope: BundleScope): Promise<string[]> {
  if (scope.kind === 'evidence') {
    if (scope.evidenceIds.length === 0)
      throw new BundleError('name at least one evidence item', 'bad_request');
    const found = await inChunks(scope.evidenceIds, (ids) =>
      db.selectFrom('evidence_items').select('id').where('id', 'in', ids).execute(),
    );
    const have = new Set(found.map((r) => r.id));
    const missing = scope.evidenceIds.filter((id) => !have.has(id));
    if (missing.length > 0) throw new BundleError(`no evidence item ${missing[0]}`, 'not_found');
    return [...new Set(scope.evidenceIds)];
  }
  if (scope.kind === 'ingest_run') {
    const run = await db
      .selectFrom('ingest_runs')
      .select('id')
      .where('id', '=', scope.ingestRunId)
      .executeTakeFirst();
    if (!run) throw new BundleError(`no ingest run ${scope.ingestRunId}`, 'not_found');
    const rows = await db
      .selectFrom('evidence_locations')
      .select('evidence_id')
      .distinct()
      .where('ingest_run_id', '=', scope.ingestRunId)
      .orderBy('evidence_id')
      .execute();
    return rows.map((r) => r.evidence_id);
  }
  const person = await db
    .selectFrom('persons')
    .select('id')
    .where('id', '=', scope.personId)
    .executeTakeFirst();
  if (!person) throw new BundleError(`no person ${scope.personId}`, 'not_found');
  const rows = await db
    .selectFrom('identifications')
    .select('evidence_id')
    .distinct()
    .where('person_id', '=', scope.personId)
    .where('status', 'in', identifiedStatuses)
    .orderBy('evidence_id')
    .execute();
  return rows.map((r) => r.evidence_id);
}

async function itemRows(db: Db, id: string): Promise<ItemRows> {
  const item = (await db
    .selectFrom('evidence_items')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()) as ItemRows['item'];
  const bodyLabels = await db
    .selectFrom('body_labels')
    .selectAll()
    .where('evidence_id', '=', id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const bodyIds = [...new Set(bodyLabels.map((l) => l.body_id))];
  return {
    item,
    annotations: await db
      .selectFrom('annotations')
      .selectAll()
      .where('evidence_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    bodyLabels,
    bodies: bodyIds.length
      ? await db.selectFrom('bodies').selectAll().where('id', 'in', bodyIds).orderBy('id').execute()
      : [],
    identifications: await db
      .selectFrom('identifications')
      .selectAll()
      .where('evidence_id', '=', id)
      .orderBy('proposed_at')
      .orderBy('id')
      .execute(),
    custody: (
      await db
        .selectFrom('custody_events')
        .selectAll()
        .where('evidence_id', '=', id)
        .orderBy('at')
        .orderBy('id')
        .execute()
    ).map((r) => ({ ...r, ledger_index: r.ledger_index === null ? null : Number(r.ledger_index) })),
    locations: await db
      .selectFrom('evidence_locations')
      .selectAll()
      .where('evidence_id', '=', id)
      .orderBy('found_at')
      .orderBy('id')
      .execute(),
  };
}

async function personRows(db: Db, personId: string): Promise<PersonRows> {
  const person = await db
    .selectFrom('persons')
    .selectAll()
    .where('id', '=', personId)
    .executeTakeFirstOrThrow();
  const links = await db
    .selectFrom('record_links')
    .selectAll()
    .where('person_id', '=', personId)
    .orderBy('linked_at')
    .orderBy('id')
    .execute();
  const recordIds = [...new Set(links.map((l) => l.record_id))];
  const records = await inChunks(recordIds, (ids) =>
    db.selectFrom('records').selectAll().where('id', 'in', ids).execute(),
  );
  const events = await db
    .selectFrom('events')
    .selectAll()
    .where((eb) =>
      recordIds.length
        ? eb.or([eb('person_id', '=', personId), eb('record_id', 'in', recordIds)])
        : eb('person_id', '=', personId),
    )
    .orderBy('date_start')
    .orderBy('id')
    .execute();
  const assertions = await db
    .selectFrom('assertions')
    .selectAll()
    .where((eb) =>
      recordIds.length
        ? eb.or([eb('person_id', '=', personId), eb('record_id', 'in', recordIds)])
        : eb('person_id', '=', personId),
    )
    .orderBy('asserted_at')
    .orderBy('id')
    .execute();
  const relations = await db
    .selectFrom('relations')
    .selectAll()
    .where((eb) => eb.or([eb('person_a', '=', personId), eb('person_b', '=', personId)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const identifications = await db
    .selectFrom('identifications')
    .selectAll()
    .where('person_id', '=', personId)
    .orderBy('proposed_at')
    .orderBy('id')
    .execute();
  const decisionIds = [...new Set(links.flatMap((l) => (l.decision_id ? [l.decision_id] : [])))];
  const decisions = decisionIds.length
    ? await db.selectFrom('decisions').selectAll().where('id', 'in', decisionIds).orderBy('id').execute()
    : [];
  return { person, records, links, events, assertions, relations, identifications, decisions };
}

/** Every row of the scope, read inside one transaction so that the bundle is one consistent moment. */
export async function readScope(db: Db, scope: BundleScope, purpose: string): Promise<ScopeRows> {
  const ids = await scopeEvidenceIds(db, scope);
  const items: ItemRows[] = [];
  for (const id of ids) items.push(await itemRows(db, id));
  let person: PersonRows | null = null;
  let withheldRecords = 0;
  const reports = new ReportRepository(db);
  const withheldAmong = async (records: Row[]): Promise<Set<string>> => {
    const family = records.filter((r) => r.kind === 'family_report').map((r) => r.id as string);
    return new Set(family.length ? await reports.recordsWithdrawnFrom(purpose, family) : []);
  };
  if (scope.kind === 'person') {
    person = await personRows(db, scope.personId);
    const withheld = await withheldAmong(person.records);
    withheldRecords += withheld.size;
    if (withheld.size > 0) {
      // A withheld record leaves with everything that would name it.
      person.records = person.records.filter((r) => !withheld.has(r.id as string));
      person.links = person.links.filter((l) => !withheld.has(l.record_id as string));
      person.events = person.events.filter((e) => !withheld.has(e.record_id as string));
      person.assertions = person.assertions.filter((a) => !withheld.has(a.record_id as string));
    }
  }
  const inPerson = new Set((person?.records ?? []).map((r) => r.id as string));
  const named = [
    ...new Set(
      items.flatMap((i) => i.annotations.flatMap((a) => (a.record_id ? [a.record_id as string] : []))),
    ),
  ].filter((id) => !inPerson.has(id));
  let records = await inChunks(named, (chunkIds) =>
    db.selectFrom('records').selectAll().where('id', 'in', chunkIds).execute(),
  );
  const withheld = await withheldAmong(records);
  withheldRecords += withheld.size;
  records = records.filter((r) => !withheld.has(r.id as string));
  const hidden = new Set([...withheld]);
  for (const item of items) {
    item.annotations = item.annotations.map((a) =>
      hidden.has(a.record_id as string) ? { ...a, record_id: null, record_withheld: true } : a,
    );
  }
  return { items, person, records: records as Row[], withheldRecords };
}
