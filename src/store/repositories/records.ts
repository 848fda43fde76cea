import { sql } from 'kysely';
import { type Capabilities, chunkRows } from '../capabilities.js';
import { prepared } from '../prepared.js';
import type { RecordLinkTable, RecordNameKeyTable, RecordTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';
import { withdrawnRecords } from './reports.js';

/** A stored record with its source's name and the person it now belongs to (if any). */
export interface RecordView extends RecordTable {
  source_name: string;
  person_id: string | null;
}

/** A record linked to a person as the person page reads it: the record's columns, then its link's. */
export type LinkedRecordRow = RecordView & {
  link_id: string;
  link_linked_at: string;
  link_linked_by: string | null;
  link_basis: string;
  link_decision_id: string | null;
  link_note: string | null;
};

/** A linked record row as the record with its (standing) link. */
export function linkedRecord(
  { link_id, link_linked_at, link_linked_by, link_basis, link_decision_id, link_note, ...r }: LinkedRecordRow,
  personId: string,
): RecordView & { link: RecordLinkTable } {
  return {
    ...r,
    link: {
      id: link_id,
      record_id: r.id,
      person_id: personId,
      linked_at: link_linked_at,
      linked_by: link_linked_by,
      basis: link_basis,
      decision_id: link_decision_id,
      note: link_note,
      unlinked_at: null,
      unlinked_by: null,
      unlink_reason: null,
    },
  };
}

/** Filters of a record listing or search; ids already resolved from aliases. */
export interface RecordFilter {
  governorateId?: string;
  branchId?: string;
  sourceId?: string;
  /** Partial ISO dates; a record's date overlapping the range matches. */
  from?: string;
  to?: string;
  /** Leave out records whose family report does not consent to internal use (every role but liaisons). */
  withoutWithdrawn?: boolean;
}

/** Records as the registry writes and reads them: inserts with their name keys, lookups, filtered pages, key hits. */
export class RecordRepository {
  constructor(
    private readonly db: Db,
    private readonly caps: Capabilities,
  ) {}

  /** Inserts records and their name keys, in statements under the dialect's parameter limit. */
  async insert(records: readonly RecordTable[], keys: readonly RecordNameKeyTable[]): Promise<void> {
    for (const chunk of chunkRows(this.caps, records))
      await this.db.insertInto('records').values(chunk).execute();
    for (const chunk of chunkRows(this.caps, keys)) {
      await this.db
        .insertInto('record_name_keys')
        .values(chunk)
        .onConflict((oc) => oc.columns(['key', 'record_id']).doNothing())
        .execute();
    }
  }

  /**
   * Refreshes the planner's statistics of the registry's tables after a bulk load. Without them PostgreSQL plans
   * the person page's join through the partial index of all open links (every link scanned, per request).
   */
  async refreshStatistics(): Promise<void> {
    if (this.caps.dialect === 'postgres') {
      await sql`analyze records, record_name_keys, record_links, persons, events, assertions`.execute(
        this.db,
      );
    } else {
      await sql`pragma optimize`.execute(this.db);
    }
  }

  /** Which of these external ids a source already has. */
  async existingExternalIds(sourceId: string, externalIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of slices(externalIds, 500)) {
      const rows = await this.db
        .selectFrom('records')
        .select('external_id')
        .where('source_id', '=', sourceId)
        .where('external_id', 'in', part)
        .execute();
      for (const r of rows) if (r.external_id !== null) found.add(r.external_id);
    }
    return found;
  }

  private viewQuery() {
    return this.db
      .selectFrom('records as r')
      .innerJoin('sources as s', 's.id', 'r.source_id')
      .leftJoin('record_links as l', (j) =>
        j.onRef('l.record_id', '=', 'r.id').on('l.unlinked_at', 'is', null),
      )
      .selectAll('r')
      .select(['s.name as source_name', 'l.person_id as person_id']);
  }

  /** Up to `limit` records that belong to no person (stored before every record had one). */
  async withoutPerson(limit: number): Promise<{ id: string; created_by: string | null }[]> {
    return this.db
      .selectFrom('records as r')
      .select(['r.id', 'r.created_by'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('record_links as l')
              .select('l.id')
              .whereRef('l.record_id', '=', 'r.id')
              .where('l.unlinked_at', 'is', null),
          ),
        ),
      )
      .orderBy('r.id')
      .limit(limit)
      .execute();
  }

  /** Each record's full name as written, by id (what a list of reports shows beside each). */
  async fullNames(ids: readonly string[]): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('records')
      .select(['id', 'full_name'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.full_name]));
  }

  async get(id: string): Promise<RecordView | undefined> {
    return (await this.viewQuery().where('r.id', '=', id).executeTakeFirst()) as RecordView | undefined;
  }

  /** Records by id, in no particular order. */
  async many(ids: readonly string[]): Promise<RecordView[]> {
    if (ids.length === 0) return [];
    const out: RecordView[] = [];
    for (const part of slices(ids, 500)) {
      out.push(...((await this.viewQuery().where('r.id', 'in', part).execute()) as RecordView[]));
    }
    return out;
  }

  /** The records a person is made of (open links), with each link, in the order they were linked. One query. */
  async linkedTo(personId: string): Promise<(RecordView & { link: RecordLinkTable })[]> {
    const rows = await recordsLinkedTo(this.db, personId);
    return rows.map((row) => linkedRecord(row, personId));
  }

  /** Up to `limit` records matching the filter, newest first, with id below `before`. */
  async page(filter: RecordFilter, before: string | undefined, limit: number): Promise<RecordView[]> {
    let q = this.viewQuery();
    q = applyFilter(this.db, q, filter);
    if (before) q = q.where('r.id', '<', before);
    return (await q.orderBy('r.id', 'desc').limit(limit).execute()) as RecordView[];
  }

  /** How many records carry a key, counted up to `cap + 1` (enough to tell a selective key from a common one). */
  async keyFrequency(key: string, cap: number): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from (select 1 from record_name_keys where key = ${key} limit ${cap + 1}) t`.execute(
      this.db,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** (record, key) hits of these keys, for records passing the filter; at most `limit` rows. */
  async keyHits(
    keys: readonly string[],
    filter: RecordFilter,
    limit: number,
  ): Promise<{ record_id: string; key: string }[]> {
    if (keys.length === 0) return [];
    const filtered = Object.values(filter).some((v) => v !== undefined);
    if (!filtered || (filter.withoutWithdrawn && Object.keys(filter).length === 1)) {
      let q = this.db.selectFrom('record_name_keys').select(['record_id', 'key']).where('key', 'in', keys);
      if (filter.withoutWithdrawn)
        q = q.where('record_id', 'not in', withdrawnRecords(this.db, 'internal_use'));
      return q.limit(limit).execute();
    }
    let q = this.db
      .selectFrom('record_name_keys as k')
      .innerJoin('records as r', 'r.id', 'k.record_id')
      .select(['k.record_id as record_id', 'k.key as key'])
      .where('k.key', 'in', keys);
    q = applyFilter(this.db, q, filter);
    return q.limit(limit).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the filter applies to any query over `records as r`
function applyFilter<Q extends { where: (...args: any[]) => any }>(db: Db, q: Q, filter: RecordFilter): Q {
  let out = q;
  if (filter.governorateId) out = out.where('r.governorate_id', '=', filter.governorateId);
  if (filter.branchId) out = out.where('r.arresting_branch_id', '=', filter.branchId);
  if (filter.sourceId) out = out.where('r.source_id', '=', filter.sourceId);
  if (filter.withoutWithdrawn) out = out.where('r.id', 'not in', withdrawnRecords(db, 'internal_use'));
  if (filter.from) {
    const from = filter.from;
    // A date known to the year or month overlaps the range when it holds the range's start.
    // biome-ignore lint/suspicious/noExplicitAny: the expression builder of whichever query this is
    out = out.where((eb: any) =>
      eb.or([
        eb('r.arrest_date', '>=', from),
        eb('r.arrest_date', 'in', [from.slice(0, 4), from.slice(0, 7)]),
      ]),
    );
  }
  // ISO prefixes sort before their extensions, so "2012" and "2012-05" both pass `<= 2012-05-01`.
  if (filter.to) out = out.where('r.arrest_date', '<=', filter.to);
  return out;
}

// Plain SQL (the same on both dialects), compiled once: the person page's hottest query.
const recordsLinkedTo = prepared(
  (_db, personId: string) => sql<LinkedRecordRow>`select r.*, s.name as source_name, l.person_id as person_id,
      l.id as link_id, l.linked_at as link_linked_at, l.linked_by as link_linked_by, l.basis as link_basis,
      l.decision_id as link_decision_id, l.note as link_note
    from record_links l
    join records r on r.id = l.record_id
    join sources s on s.id = r.source_id
    where l.person_id = ${personId} and l.unlinked_at is null
    order by l.linked_at, l.id`,
);
