import { type ExportEncoder, type ExportRow, pfifNoteOf } from '../../exchange/export-formats.js';
import { pfifStatuses } from '../../exchange/pfif.js';
import type { RecordTable } from '../../store/schema.js';
import { slices } from '../../store/slices.js';
import type { Db, Store } from '../../store/store.js';

/**
 * A records export's pages, shared by the export's main thread and its worker threads (export-worker.ts): a keyset
 * page of records inside an id range, their persons and (for PFIF) their claims, encoded to text. Nothing here
 * writes; the caller puts the text in order.
 */

/** What every page needs besides the records: small maps made once per export. */
export interface RecordPageContext {
  /** Family-report records whose consent covers the export's purpose. */
  allowed: ReadonlySet<string>;
  governorates: ReadonlyMap<string, string>;
  branches: ReadonlyMap<string, string>;
  sources: ReadonlyMap<string, string>;
  /** PFIF only: the repository's domain for note and person record ids. */
  domain: string;
  pfif: boolean;
  /** Ids per `IN (…)` query. */
  chunk: number;
}

/**
 * The columns read, in this order: `toExportRow` reads them by these positions. Nothing is joined — with the
 * table's statistics SQLite planned a join to sources from the (small) sources table and sorted every later row for
 * each page, quadratic; source names come from a map, persons from one range query per page.
 */
const columns = [
  'id',
  'source_id',
  'kind',
  'external_id',
  'full_name',
  'first_name',
  'father_name',
  'grandfather_name',
  'family_name',
  'mother_name',
  'sex',
  'birth_date',
  'birth_year',
  'governorate_id',
  'place_of_origin',
  'arrest_date',
  'arresting_branch_id',
  'detainee_number',
  'death_date',
  'forensic_report_number',
  'notes',
  'created_at',
] as const satisfies readonly (keyof RecordTable)[];
const at = Object.fromEntries(columns.map((c, i) => [c, i])) as Record<(typeof columns)[number], number>;

/** A span of record ids: from `from` (inclusive; null: the first) to before `before` (null: the last). */
export interface ExportSpan {
  from: string | null;
  before: string | null;
}

/** Where a page starts: at a span's start, or after the last id of the page before, and where its span ends. */
export type PageStart = { from?: string | null; after?: string; before?: string | null };

/** A page of rows as arrays in `columns` order (Store.rows: no object per row from the driver). */
export async function recordPage(store: Store, start: PageStart, limit: number) {
  let query = store.db.selectFrom('records').select(columns);
  if (start.after !== undefined) query = query.where('id', '>', start.after);
  else if (start.from) query = query.where('id', '>=', start.from);
  if (start.before) query = query.where('id', '<', start.before);
  return store.rows(query.orderBy('id').limit(limit).compile());
}

/** The open person link of each record with an id in [first, last]: one range query on the active-link index. */
async function personsBetween(db: Db, first: string, last: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('record_links')
    .select(['record_id', 'person_id'])
    .where('record_id', '>=', first)
    .where('record_id', '<=', last)
    .where('unlinked_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.record_id, r.person_id]));
}

/** PFIF-status claims with their source's name, oldest first: what both lookups below narrow. */
function pfifClaims(db: Db) {
  return db
    .selectFrom('assertions as a')
    .leftJoin('sources as s', 's.id', 'a.source_id')
    .select([
      'a.id',
      'a.kind',
      'a.statement',
      'a.asserted_at',
      'a.record_id',
      'a.person_id',
      's.name as source',
    ])
    .where('a.kind', 'in', [...pfifStatuses])
    .orderBy('a.asserted_at');
}

type Claim = Awaited<ReturnType<ReturnType<typeof pfifClaims>['execute']>>[number];

function groupClaims(out: Map<string, Claim[]>, rows: readonly Claim[], column: 'record_id' | 'person_id') {
  for (const r of rows) {
    const key = r[column] as string;
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}

/** PFIF-status claims about these records (or persons), by record or person id, oldest first. */
export async function claimsAbout(
  db: Db,
  column: 'record_id' | 'person_id',
  ids: readonly string[],
  chunk: number,
): Promise<Map<string, Claim[]>> {
  const out = new Map<string, Claim[]>();
  for (const part of slices(ids, chunk))
    groupClaims(out, await pfifClaims(db).where(`a.${column}`, 'in', part).execute(), column);
  return out;
}

/**
 * PFIF-status claims about the records with ids in [first, last], by record, oldest first: one range query on the
 * record index (a page's 5,000 ids bound as parameters cost more than the rows they find).
 */
async function claimsBetween(db: Db, first: string, last: string): Promise<Map<string, Claim[]>> {
  const rows = await pfifClaims(db)
    .where('a.record_id', '>=', first)
    .where('a.record_id', '<=', last)
    .execute();
  return groupClaims(new Map(), rows, 'record_id');
}

const text = (v: unknown) => (v === null || v === undefined ? null : (v as string));

/**
 * One record's export row straight from its array (one object per row, no intermediate copy): exactly the records
 * export's columns, in their order, null where empty — the JSON encoder writes it as it is (ExportMeta.exactRows).
 */
function toExportRow(a: unknown[], context: RecordPageContext, persons: Map<string, string>): ExportRow {
  const id = a[at.id] as string;
  const source = a[at.source_id] as string;
  const governorate = text(a[at.governorate_id]);
  const branch = text(a[at.arresting_branch_id]);
  return {
    record_id: id,
    source: context.sources.get(source) ?? source,
    full_name: text(a[at.full_name]),
    first_name: text(a[at.first_name]),
    father_name: text(a[at.father_name]),
    grandfather_name: text(a[at.grandfather_name]),
    family_name: text(a[at.family_name]),
    mother_name: text(a[at.mother_name]),
    sex: text(a[at.sex]),
    birth_date: text(a[at.birth_date]),
    birth_year: a[at.birth_year] as number | null,
    governorate: governorate ? (context.governorates.get(governorate) ?? governorate) : null,
    place_of_origin: text(a[at.place_of_origin]),
    arrest_date: text(a[at.arrest_date]),
    arresting_branch: branch ? (context.branches.get(branch) ?? branch) : null,
    detainee_number: text(a[at.detainee_number]),
    death_date: text(a[at.death_date]),
    forensic_report_number: text(a[at.forensic_report_number]),
    notes: text(a[at.notes]),
    kind: a[at.kind] as string,
    external_id: text(a[at.external_id]),
    person_id: persons.get(id) ?? null,
    created_at: a[at.created_at] as string,
  };
}

export interface EncodedPage {
  /** The page's items, each beginning with the encoder's separator (`ExportEncoder.separator`). */
  text: string;
  /** Rows read (0: the range is done). */
  read: number;
  exported: number;
  withheld: number;
  /** The last id read: the next page starts after it. */
  last: string;
}

/** Reads and encodes the page that starts at `start`. */
export async function encodeRecordPage(
  store: Store,
  encoder: ExportEncoder,
  context: RecordPageContext,
  start: PageStart,
  limit: number,
): Promise<EncodedPage> {
  const arrays = await recordPage(store, start, limit);
  if (arrays.length === 0) return { text: '', read: 0, exported: 0, withheld: 0, last: start.after ?? '' };
  const first = (arrays[0] as unknown[])[at.id] as string;
  const last = (arrays.at(-1) as unknown[])[at.id] as string;
  const kept = arrays.filter(
    (a) => a[at.kind] !== 'family_report' || context.allowed.has(a[at.id] as string),
  );
  const persons = await personsBetween(store.db, first, last);
  const claims = context.pfif ? await claimsBetween(store.db, first, last) : undefined;
  let out = '';
  for (const a of kept) {
    const row = toExportRow(a, context, persons);
    const notes = claims
      ? (claims.get(row.record_id as string) ?? []).flatMap(
          (c) => pfifNoteOf(context.domain, c, `${context.domain}/record.${row.record_id}`) ?? [],
        )
      : undefined;
    out += encoder.separator + encoder.item(row, notes);
  }
  return {
    text: out,
    read: arrays.length,
    exported: kept.length,
    withheld: arrays.length - kept.length,
    last,
  };
}
