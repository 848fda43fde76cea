import { sql } from 'kysely';
import { newId } from '../../ids.js';
import { idParts, insertRows, isOneOf, jsonChunk } from '../bulk-rows.js';
import type { Capabilities } from '../capabilities.js';
import type { PersonTable, RecordLinkTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';
import { withdrawnRecords } from './reports.js';

export interface RecordLink {
  id: string;
  recordId: string;
  personId: string;
  linkedAt: string;
  linkedBy: string | null;
  basis: string;
  decisionId: string | null;
  note: string | null;
  unlinkedAt: string | null;
  unlinkedBy: string | null;
  unlinkReason: string | null;
}

function toLink(row: RecordLinkTable): RecordLink {
  return {
    id: row.id,
    recordId: row.record_id,
    personId: row.person_id,
    linkedAt: row.linked_at,
    linkedBy: row.linked_by,
    basis: row.basis,
    decisionId: row.decision_id,
    note: row.note,
    unlinkedAt: row.unlinked_at,
    unlinkedBy: row.unlinked_by,
    unlinkReason: row.unlink_reason,
  };
}

/**
 * Records' membership of persons. A link is opened and later perhaps closed — never deleted — so the history of who
 * belonged to whom, on what basis, stays readable.
 */
export class RecordLinkRepository {
  /** `caps`: given, lists of ids go as one array parameter on PostgreSQL (bulk-rows.ts). */
  constructor(
    private readonly db: Db,
    private readonly caps?: Capabilities,
  ) {}

  async createPerson(at: string, by: string | null): Promise<string> {
    const id = newId();
    await this.db
      .insertInto('persons')
      .values({ id, created_at: at, created_by: by, merged_into: null, merged_at: null })
      .execute();
    return id;
  }

  /** `count` new persons at once (a person of one for each record stored), or one for each id given. */
  async createPersons(
    caps: Capabilities,
    count: number | readonly string[],
    at: string,
    by: string | null,
  ): Promise<string[]> {
    const ids = typeof count === 'number' ? Array.from({ length: count }, () => newId()) : [...count];
    const rows: PersonTable[] = ids.map((id) => ({
      id,
      created_at: at,
      created_by: by,
      merged_into: null,
      merged_at: null,
    }));
    await insertRows(this.db, caps, 'persons', rows);
    return ids;
  }

  /** Opens many links at once; answers the rows as stored (what the log vouches for). */
  async openMany(
    caps: Capabilities,
    links: readonly {
      recordId: string;
      personId: string;
      at: string;
      by: string | null;
      basis: string;
      decisionId?: string | null;
      note?: string | null;
    }[],
  ): Promise<RecordLinkTable[]> {
    const rows: RecordLinkTable[] = links.map((l) => ({
      id: newId(),
      record_id: l.recordId,
      person_id: l.personId,
      linked_at: l.at,
      linked_by: l.by,
      basis: l.basis,
      decision_id: l.decisionId ?? null,
      note: l.note ?? null,
      unlinked_at: null,
      unlinked_by: null,
      unlink_reason: null,
    }));
    await insertRows(this.db, caps, 'record_links', rows);
    return rows;
  }

  /** Closes these open links at once; answers the rows as they now stand (links already closed are left out). */
  async closeMany(
    ids: readonly string[],
    at: string,
    by: string | null,
    reason: string,
  ): Promise<RecordLinkTable[]> {
    const closed: RecordLinkTable[] = [];
    for (const part of slices(ids, 500)) {
      const open = await this.db
        .selectFrom('record_links')
        .selectAll()
        .where('id', 'in', part)
        .where('unlinked_at', 'is', null)
        .execute();
      if (open.length === 0) continue;
      await this.db
        .updateTable('record_links')
        .set({ unlinked_at: at, unlinked_by: by, unlink_reason: reason })
        .where(
          'id',
          'in',
          open.map((r) => r.id),
        )
        .where('unlinked_at', 'is', null)
        .execute();
      for (const r of open) closed.push({ ...r, unlinked_at: at, unlinked_by: by, unlink_reason: reason });
    }
    return closed;
  }

  /**
   * Closes these open links in one statement per 500 and answers them closed, in the order given (links already
   * closed are left out): closeMany without reading them first, for the tracing loop's merge after merge.
   */
  async closeReturning(
    ids: readonly string[],
    at: string,
    by: string | null,
    reason: string,
  ): Promise<RecordLinkTable[]> {
    const closed = new Map<string, RecordLinkTable>();
    for (const part of idParts(this.caps, ids)) {
      const rows = await this.db
        .updateTable('record_links')
        .set({ unlinked_at: at, unlinked_by: by, unlink_reason: reason })
        .where(isOneOf(this.caps, 'id', part))
        .where('unlinked_at', 'is', null)
        .returningAll()
        .execute();
      for (const r of rows) closed.set(r.id, r);
    }
    return ids.flatMap((id) => {
      const row = closed.get(id);
      return row ? [row] : [];
    });
  }

  /** Each record's open link, for many records (500 a statement). */
  async activeOf(recordIds: readonly string[]): Promise<Map<string, RecordLink>> {
    const out = new Map<string, RecordLink>();
    for (const part of slices(recordIds, 500)) {
      const rows = await this.db
        .selectFrom('record_links')
        .selectAll()
        .where('record_id', 'in', part)
        .where('unlinked_at', 'is', null)
        .execute();
      for (const r of rows) out.set(r.record_id, toLink(r));
    }
    return out;
  }

  /** How many open links each of these persons has. */
  async openCounts(personIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const part of idParts(this.caps, personIds)) {
      const rows = await this.db
        .selectFrom('record_links')
        .select(['person_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where(isOneOf(this.caps, 'person_id', part))
        .where('unlinked_at', 'is', null)
        .groupBy('person_id')
        .execute();
      for (const r of rows) out.set(r.person_id, Number(r.n));
    }
    return out;
  }

  /** For a person whose links were all closed: the persons its records belong to now, with how many each. */
  async whereRecordsWent(personId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('record_links as old')
      .innerJoin('record_links as now', 'now.record_id', 'old.record_id')
      .select(['now.person_id as person_id', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('old.person_id', '=', personId)
      .where('now.unlinked_at', 'is', null)
      .where('now.person_id', '<>', personId)
      .groupBy('now.person_id')
      .execute();
    return new Map(rows.map((r) => [r.person_id, Number(r.n)]));
  }

  async person(id: string): Promise<PersonTable | undefined> {
    return this.db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Persons by id, 500 ids a query (one on PostgreSQL). */
  async personsByIds(ids: readonly string[]): Promise<PersonTable[]> {
    const out: PersonTable[] = [];
    for (const part of idParts(this.caps, ids)) {
      out.push(
        ...(await this.db
          .selectFrom('persons')
          .selectAll()
          .where(isOneOf(this.caps, 'id', part))
          .execute()),
      );
    }
    return out;
  }

  /**
   * For persons whose links were all closed: the persons their records belong to now, with how many each (as
   * `whereRecordsWent`, for many persons in a few queries).
   */
  async whereRecordsWentMany(personIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
    const out = new Map<string, Map<string, number>>();
    for (const part of idParts(this.caps, personIds)) {
      const rows = await this.db
        .selectFrom('record_links as old')
        .innerJoin('record_links as now', 'now.record_id', 'old.record_id')
        .select([
          'old.person_id as from_id',
          'now.person_id as person_id',
          (eb) => eb.fn.countAll<string | number>().as('n'),
        ])
        .where(isOneOf(this.caps, 'old.person_id', part))
        .where('now.unlinked_at', 'is', null)
        .whereRef('now.person_id', '<>', 'old.person_id')
        .groupBy(['old.person_id', 'now.person_id'])
        .execute();
      for (const r of rows) {
        const went = out.get(r.from_id) ?? new Map<string, number>();
        out.set(r.from_id, went);
        went.set(r.person_id, Number(r.n));
      }
    }
    return out;
  }

  /** These persons are merged into none (they hold records): only those marked merged are written. */
  async unmerge(personIds: readonly string[]): Promise<void> {
    for (const part of idParts(this.caps, personIds)) {
      await this.db
        .updateTable('persons')
        .set({ merged_into: null, merged_at: null })
        .where(isOneOf(this.caps, 'id', part))
        .where('merged_into', 'is not', null)
        .execute();
    }
  }

  /** Sets where each person went (or null): in a few UPDATE … FROM statements (a VALUES list of 300 where the dialect is not known). */
  async setMergedIntoMany(
    changes: readonly { id: string; into: string | null; at: string | null }[],
  ): Promise<void> {
    if (this.caps?.dialect === 'postgres' && changes.length > 0) {
      await sql`update persons set merged_into = v.into_id, merged_at = v.at
        from unnest(${changes.map((c) => c.id)}::text[], ${changes.map((c) => c.into)}::text[],
          ${changes.map((c) => c.at)}::text[]) as v(id, into_id, at)
        where persons.id = v.id`.execute(this.db);
      return;
    }
    if (this.caps?.dialect === 'sqlite') {
      // One JSON parameter per 20,000 persons (bulk-rows.ts).
      for (const part of slices(changes, jsonChunk)) {
        const json = JSON.stringify(part.map((c) => [c.id, c.into, c.at]));
        await sql`update persons set merged_into = v.value ->> 1, merged_at = v.value ->> 2
          from json_each(${json}) as v where persons.id = v.value ->> 0`.execute(this.db);
      }
      return;
    }
    for (const part of slices(changes, 300)) {
      const values = sql.join(part.map((c) => sql`(${c.id}, ${c.into}, ${c.at})`));
      // Both dialects take a CTE with named columns and UPDATE … FROM (SQLite since 3.33).
      await sql`with v(id, into_id, at) as (values ${values})
        update persons set merged_into = v.into_id, merged_at = v.at from v where persons.id = v.id`.execute(
        this.db,
      );
    }
  }

  /** The person each record belongs to now, for many records (500 a query). */
  async activePersons(recordIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const part of slices(recordIds, 500)) {
      const rows = await this.db
        .selectFrom('record_links')
        .select(['record_id', 'person_id'])
        .where('record_id', 'in', part)
        .where('unlinked_at', 'is', null)
        .execute();
      for (const r of rows) out.set(r.record_id, r.person_id);
    }
    return out;
  }

  async setMergedInto(id: string, into: string | null, at: string | null): Promise<void> {
    await this.db
      .updateTable('persons')
      .set({ merged_into: into, merged_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Every record with its source and its person, in record order, page by page (`registry link --out`). */
  async exportPage(
    afterRecordId: string | null,
    limit: number,
  ): Promise<{
    rows: { record_id: string; external_id: string | null; source_name: string; person_id: string }[];
    /** The last record read (the next page starts after it); null when there was none. */
    last: string | null;
  }> {
    // Records by primary key alone, then their persons and sources by lookup: joined, SQLite planned from the small
    // sources table and sorted every later record for each page (a million records took 8 minutes, not seconds).
    let q = this.db.selectFrom('records').select(['id', 'external_id', 'source_id']);
    if (afterRecordId !== null) q = q.where('id', '>', afterRecordId);
    const records = await q.orderBy('id').limit(limit).execute();
    if (records.length === 0) return { rows: [], last: null };
    const persons = await this.activePersons(records.map((r) => r.id));
    const sourceIds = [...new Set(records.map((r) => r.source_id))];
    const sources = new Map(
      (await this.db.selectFrom('sources').select(['id', 'name']).where('id', 'in', sourceIds).execute()).map(
        (r) => [r.id, r.name],
      ),
    );
    const rows = records.flatMap((r) => {
      const person = persons.get(r.id);
      // A record with no open link is not exported (as the inner join left it out).
      return person
        ? [
            {
              record_id: r.id,
              external_id: r.external_id,
              source_name: sources.get(r.source_id) ?? r.source_id,
              person_id: person,
            },
          ]
        : [];
    });
    return { rows, last: (records.at(-1) as { id: string }).id };
  }

  /**
   * Every record that counts for an estimate, with its person, source and the fields strata are drawn from, in
   * record order, page by page. Records whose family report does not consent to internal use are left out.
   */
  capturePage(afterRecordId: string | null, limit: number) {
    let q = this.db
      .selectFrom('records as r')
      .innerJoin('record_links as l', (join) =>
        join.onRef('l.record_id', '=', 'r.id').on('l.unlinked_at', 'is', null),
      )
      .select([
        'r.id as record_id',
        'l.person_id',
        'r.source_id',
        'r.governorate_id',
        'r.arrest_date',
        'r.sex',
        'r.arresting_branch_id',
      ])
      .where('r.id', 'not in', withdrawnRecords(this.db, 'internal_use'));
    if (afterRecordId !== null) q = q.where('r.id', '>', afterRecordId);
    return q.orderBy('r.id').limit(limit).execute();
  }

  /** Every open link in record order, page by page (a registry-wide run reads them all). */
  async openPage(
    afterRecordId: string | null,
    limit: number,
  ): Promise<Pick<RecordLinkTable, 'id' | 'record_id' | 'person_id' | 'basis'>[]> {
    let q = this.db
      .selectFrom('record_links')
      .select(['id', 'record_id', 'person_id', 'basis'])
      .where('unlinked_at', 'is', null);
    if (afterRecordId !== null) q = q.where('record_id', '>', afterRecordId);
    return q.orderBy('record_id').limit(limit).execute();
  }

  async open(input: {
    recordId: string;
    personId: string;
    at: string;
    by: string | null;
    basis: string;
    decisionId?: string | null;
    note?: string | null;
  }): Promise<RecordLink> {
    const row: RecordLinkTable = {
      id: newId(),
      record_id: input.recordId,
      person_id: input.personId,
      linked_at: input.at,
      linked_by: input.by,
      basis: input.basis,
      decision_id: input.decisionId ?? null,
      note: input.note ?? null,
      unlinked_at: null,
      unlinked_by: null,
      unlink_reason: null,
    };
    await this.db.insertInto('record_links').values(row).execute();
    return toLink(row);
  }

  /** Closes an open link; returns it as it now stands, or undefined when it was not open. */
  async close(id: string, at: string, by: string | null, reason: string): Promise<RecordLink | undefined> {
    const result = await this.db
      .updateTable('record_links')
      .set({ unlinked_at: at, unlinked_by: by, unlink_reason: reason })
      .where('id', '=', id)
      .where('unlinked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  /** The records each of these persons holds now (open links), 500 persons a statement. */
  async membersOf(personIds: readonly string[]): Promise<Map<string, string[]>> {
    const members = new Map<string, string[]>();
    for (const part of slices(personIds, 500)) {
      const rows = await this.db
        .selectFrom('record_links')
        .select(['person_id', 'record_id'])
        .where('person_id', 'in', part)
        .where('unlinked_at', 'is', null)
        .execute();
      for (const r of rows) members.set(r.person_id, [...(members.get(r.person_id) ?? []), r.record_id]);
    }
    return members;
  }

  /** A link's stored row, as the log vouches for it. */
  async row(id: string): Promise<RecordLinkTable> {
    return this.db.selectFrom('record_links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async get(id: string): Promise<RecordLink | undefined> {
    const row = await this.db.selectFrom('record_links').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toLink(row) : undefined;
  }

  async active(recordId: string): Promise<RecordLink | undefined> {
    const row = await this.db
      .selectFrom('record_links')
      .selectAll()
      .where('record_id', '=', recordId)
      .where('unlinked_at', 'is', null)
      .executeTakeFirst();
    return row ? toLink(row) : undefined;
  }

  async activeOfPerson(personId: string): Promise<RecordLink[]> {
    const rows = await this.db
      .selectFrom('record_links')
      .selectAll()
      .where('person_id', '=', personId)
      .where('unlinked_at', 'is', null)
      .orderBy('linked_at')
      .orderBy('id')
      .execute();
    return rows.map(toLink);
  }

  /** Open links a decision made. */
  async activeByDecision(decisionId: string): Promise<RecordLink[]> {
    const rows = await this.db
      .selectFrom('record_links')
      .selectAll()
      .where('decision_id', '=', decisionId)
      .where('unlinked_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map(toLink);
  }

  /** Links closed for this reason (those a decision moved, to restore them when it is undone). */
  async closedWithReason(reason: string): Promise<RecordLink[]> {
    const rows = await this.db
      .selectFrom('record_links')
      .selectAll()
      .where('unlink_reason', '=', reason)
      .orderBy('id')
      .execute();
    return rows.map(toLink);
  }

  /** Every link a record has had, oldest first. */
  async history(recordId: string): Promise<RecordLink[]> {
    const rows = await this.db
      .selectFrom('record_links')
      .selectAll()
      .where('record_id', '=', recordId)
      .orderBy('linked_at')
      .orderBy('id')
      .execute();
    return rows.map(toLink);
  }
}
