import { newId } from '../../ids.js';
import { prepared } from '../prepared.js';
import type { RelationTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

/** Typed relations between persons. Retracting closes a relation; nothing is deleted. */
export class RelationRepository {
  constructor(private readonly db: Db) {}

  async add(
    input: Omit<RelationTable, 'id' | 'retracted_at' | 'retracted_by' | 'retract_reason'>,
  ): Promise<RelationTable> {
    const row: RelationTable = {
      id: newId(),
      ...input,
      retracted_at: null,
      retracted_by: null,
      retract_reason: null,
    };
    await this.db.insertInto('relations').values(row).execute();
    return row;
  }

  async get(id: string): Promise<RelationTable | undefined> {
    return this.db.selectFrom('relations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Retracts a standing relation; undefined when it was not standing. */
  async retract(
    id: string,
    at: string,
    by: string | null,
    reason: string,
  ): Promise<RelationTable | undefined> {
    const result = await this.db
      .updateTable('relations')
      .set({ retracted_at: at, retracted_by: by, retract_reason: reason })
      .where('id', '=', id)
      .where('retracted_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  /** Every relation a person is part of (standing and retracted), oldest first. */
  async ofPerson(personId: string): Promise<RelationTable[]> {
    return relationsOfPerson(this.db, personId);
  }

  /** Every relation of these types that stands (not retracted). */
  async standing(types: readonly string[]): Promise<Pick<RelationTable, 'person_a' | 'person_b'>[]> {
    return this.db
      .selectFrom('relations')
      .select(['person_a', 'person_b'])
      .where('type', 'in', [...types])
      .where('retracted_at', 'is', null)
      .execute();
  }

  /** Standing relations of these types that involve one of these persons. */
  async standingAmong(
    personIds: readonly string[],
    types: readonly string[],
  ): Promise<Pick<RelationTable, 'person_a' | 'person_b'>[]> {
    const out: Pick<RelationTable, 'person_a' | 'person_b'>[] = [];
    for (const ids of slices(personIds, 250)) {
      out.push(
        ...(await this.db
          .selectFrom('relations')
          .select(['person_a', 'person_b'])
          .where('type', 'in', [...types])
          .where('retracted_at', 'is', null)
          .where((eb) => eb.or([eb('person_a', 'in', ids), eb('person_b', 'in', ids)]))
          .execute()),
      );
    }
    return out;
  }

  /** Standing relations of these types between two persons, either way round. */
  async between(a: string, b: string, types: readonly string[]): Promise<RelationTable[]> {
    return this.db
      .selectFrom('relations')
      .selectAll()
      .where('retracted_at', 'is', null)
      .where('type', 'in', types)
      .where((eb) =>
        eb.or([
          eb.and([eb('person_a', '=', a), eb('person_b', '=', b)]),
          eb.and([eb('person_a', '=', b), eb('person_b', '=', a)]),
        ]),
      )
      .execute();
  }
}

const relationsOfPerson = prepared((db, personId: string) =>
  db
    .selectFrom('relations')
    .selectAll()
    .where((eb) => eb.or([eb('person_a', '=', personId), eb('person_b', '=', personId)]))
    .orderBy('created_at')
    .orderBy('id'),
);
