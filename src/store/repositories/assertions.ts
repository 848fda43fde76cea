import { newId } from '../../ids.js';
import { prepared } from '../prepared.js';
import type { AssertionTable } from '../schema.js';
import type { Db } from '../store.js';

/** Claims about records and persons. Append-only: nothing here updates or deletes. */
export class AssertionRepository {
  constructor(private readonly db: Db) {}

  async add(input: Omit<AssertionTable, 'id'>): Promise<AssertionTable> {
    const row: AssertionTable = { id: newId(), ...input };
    await this.db.insertInto('assertions').values(row).execute();
    return row;
  }

  /** Every claim about a person or about a record now linked to it, oldest first (one query, no id list needed). */
  async aboutPerson(personId: string): Promise<AssertionTable[]> {
    const rows = await assertionsAboutPerson(this.db, personId);
    return rows.sort((a, b) =>
      a.asserted_at < b.asserted_at ? -1 : a.asserted_at > b.asserted_at ? 1 : a.id < b.id ? -1 : 1,
    );
  }

  /** Every claim about these persons or records, oldest first. */
  async about(personIds: readonly string[], recordIds: readonly string[]): Promise<AssertionTable[]> {
    if (personIds.length === 0 && recordIds.length === 0) return [];
    const rows: AssertionTable[] = [];
    for (let i = 0; i < Math.max(personIds.length, recordIds.length); i += 500) {
      const persons = personIds.slice(i, i + 500);
      const records = recordIds.slice(i, i + 500);
      if (persons.length === 0 && records.length === 0) break;
      rows.push(
        ...(await this.db
          .selectFrom('assertions')
          .selectAll()
          .where((eb) => {
            const terms = [];
            if (persons.length > 0) terms.push(eb('person_id', 'in', persons));
            if (records.length > 0) terms.push(eb('record_id', 'in', records));
            return eb.or(terms);
          })
          .execute()),
      );
    }
    const unique = new Map(rows.map((r) => [r.id, r]));
    return [...unique.values()].sort((a, b) =>
      a.asserted_at < b.asserted_at ? -1 : a.asserted_at > b.asserted_at ? 1 : a.id < b.id ? -1 : 1,
    );
  }
}

// A union of two index lookups: "person_id = ? or record_id in (subquery)" is a full scan on PostgreSQL.
const assertionsAboutPerson = prepared((db, personId: string) =>
  db
    .selectFrom('assertions')
    .selectAll()
    .where('person_id', '=', personId)
    .union(
      db
        .selectFrom('assertions as a')
        .innerJoin('record_links as l', 'l.record_id', 'a.record_id')
        .selectAll('a')
        .where('l.person_id', '=', personId)
        .where('l.unlinked_at', 'is', null),
    ),
);
