import { newId } from '../../ids.js';
import type { RecordLinkTable } from '../schema.js';
import type { Db } from '../store.js';

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
  constructor(private readonly db: Db) {}

  async createPerson(at: string, by: string | null): Promise<string> {
    const id = newId();
    await this.db.insertInto('persons').values({ id, created_at: at, created_by: by }).execute();
    return id;
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
    for (let i = 0; i < personIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('record_links')
        .select(['person_id', 'record_id'])
        .where('person_id', 'in', personIds.slice(i, i + 500))
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
