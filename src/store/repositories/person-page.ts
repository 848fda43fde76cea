import { sql } from 'kysely';
import type { Capabilities } from '../capabilities.js';
import { prepared } from '../prepared.js';
import type { AssertionTable, EventTable, RecordLinkTable, RelationTable } from '../schema.js';
import type { Db } from '../store.js';
import { AssertionRepository } from './assertions.js';
import { type LinkedRecordRow, linkedRecord, RecordRepository, type RecordView } from './records.js';
import { RelationRepository } from './relations.js';

/** Everything the person page shows, as stored rows. */
export interface PersonPageRows {
  person: { id: string; created_at: string };
  records: (RecordView & { link: RecordLinkTable })[];
  /** Unordered. */
  events: EventTable[];
  relations: RelationTable[];
  /** Unordered. */
  assertions: AssertionTable[];
  identifications: { id: string; evidence_id: string; status: string }[];
}

/**
 * The person page's reads. On PostgreSQL one statement (each part a JSON array from an index lookup), so a page
 * costs one round trip and one parse/plan instead of six on the pool; on SQLite, in process, six plain queries.
 */
// Compiled once (prepared.ts): on SQLite the page is six small queries, where building each cost as much as running it.
const personRow = prepared((db, personId: string) =>
  db.selectFrom('persons').select(['id', 'created_at']).where('id', '=', personId),
);
const personEvents = prepared((db, personId: string) =>
  db
    .selectFrom('events')
    .selectAll()
    .where('person_id', '=', personId)
    .union(
      db
        .selectFrom('events as e')
        .innerJoin('record_links as l', 'l.record_id', 'e.record_id')
        .selectAll('e')
        .where('l.person_id', '=', personId)
        .where('l.unlinked_at', 'is', null),
    ),
);
const personIdentifications = prepared((db, personId: string) =>
  db
    .selectFrom('identifications')
    .select(['id', 'evidence_id', 'status'])
    .where('person_id', '=', personId)
    .orderBy('proposed_at'),
);

export class PersonPageRepository {
  constructor(
    private readonly db: Db,
    private readonly capabilities: Capabilities,
  ) {}

  async load(personId: string): Promise<PersonPageRows | undefined> {
    return this.capabilities.dialect === 'postgres' ? this.loadAtOnce(personId) : this.loadEach(personId);
  }

  private async loadEach(personId: string): Promise<PersonPageRows | undefined> {
    const db = this.db;
    const [[person], records, events, relations, assertions, identifications] = await Promise.all([
      personRow(db, personId),
      new RecordRepository(db, this.capabilities).linkedTo(personId),
      personEvents(db, personId),
      new RelationRepository(db).ofPerson(personId),
      new AssertionRepository(db).aboutPerson(personId),
      personIdentifications(db, personId),
    ]);
    if (!person) return undefined;
    return { person, records, events, relations, assertions, identifications };
  }

  private async loadAtOnce(personId: string): Promise<PersonPageRows | undefined> {
    // The same queries as loadEach (the events and claims as unions of two index lookups: an OR with a subquery
    // scans the table on PostgreSQL), each folded into a JSON array; rows keep their column names and types
    // (all text but records.birth_year, an integer either way). The person's open links are looked up once; the
    // unions are `union all`, the second part leaving out what the first found, so no rows are sorted to drop
    // duplicates.
    const rows = await personPageAtOnce(this.db, personId);
    const row = rows[0];
    if (!row) return undefined;
    return {
      person: { id: row.id, created_at: row.created_at },
      records: row.records.map((r) => linkedRecord(r, personId)),
      events: row.events,
      relations: row.relations,
      assertions: row.assertions,
      identifications: row.identifications.map(({ id, evidence_id, status }) => ({
        id,
        evidence_id,
        status,
      })),
    };
  }
}

// The PostgreSQL page as one statement (see loadAtOnce), compiled once.
const personPageAtOnce = prepared(
  (_db, personId: string) => sql<{
    id: string;
    created_at: string;
    records: LinkedRecordRow[];
    events: EventTable[];
    relations: RelationTable[];
    assertions: AssertionTable[];
    identifications: { id: string; evidence_id: string; status: string }[];
  }>`with l as materialized (
        select id, record_id, person_id, linked_at, linked_by, basis, decision_id, note
        from record_links where person_id = ${personId} and unlinked_at is null)
      select p.id, p.created_at,
        coalesce((select json_agg(x order by x.link_linked_at, x.link_id) from (
          select r.*, s.name as source_name, l.person_id as person_id, l.id as link_id,
            l.linked_at as link_linked_at, l.linked_by as link_linked_by, l.basis as link_basis,
            l.decision_id as link_decision_id, l.note as link_note
          from l
          join records r on r.id = l.record_id
          join sources s on s.id = r.source_id) x), '[]') as records,
        coalesce((select json_agg(x) from (
          select * from events where person_id = p.id
          union all
          select e.* from events e join l on l.record_id = e.record_id
          where e.person_id is distinct from p.id) x), '[]') as events,
        coalesce((select json_agg(x order by x.created_at, x.id) from (
          select * from relations where person_a = p.id
          union all
          select * from relations where person_b = p.id and person_a <> p.id) x), '[]') as relations,
        coalesce((select json_agg(x) from (
          select * from assertions where person_id = p.id
          union all
          select a.* from assertions a join l on l.record_id = a.record_id
          where a.person_id is distinct from p.id) x), '[]') as assertions,
        coalesce((select json_agg(x order by x.proposed_at) from (
          select id, evidence_id, status, proposed_at from identifications where person_id = p.id) x), '[]')
          as identifications
      from persons p where p.id = ${personId}`,
);
