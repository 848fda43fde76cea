import type { IdentificationStatus } from '../../domain/review.js';
import { newId } from '../../ids.js';
import type { IdentificationStepTable, IdentificationTable } from '../schema.js';
import type { Db } from '../store.js';

export interface Identification {
  id: string;
  evidenceId: string;
  personId: string;
  status: IdentificationStatus;
  basis: string | null;
  proposedBy: string;
  proposedAt: string;
  firstConfirmedBy: string | null;
  firstConfirmedAt: string | null;
  secondConfirmedBy: string | null;
  secondConfirmedAt: string | null;
  informedBy: string | null;
  informedAt: string | null;
}

export interface IdentificationStep {
  id: string;
  identificationId: string;
  step: string;
  actor: string;
  at: string;
  note: string | null;
}

export function toIdentification(row: IdentificationTable): Identification {
  return {
    id: row.id,
    evidenceId: row.evidence_id,
    personId: row.person_id,
    status: row.status as IdentificationStatus,
    basis: row.basis,
    proposedBy: row.proposed_by,
    proposedAt: row.proposed_at,
    firstConfirmedBy: row.first_confirmed_by,
    firstConfirmedAt: row.first_confirmed_at,
    secondConfirmedBy: row.second_confirmed_by,
    secondConfirmedAt: row.second_confirmed_at,
    informedBy: row.informed_by,
    informedAt: row.informed_at,
  };
}

function toStep(row: IdentificationStepTable): IdentificationStep {
  return {
    id: row.id,
    identificationId: row.identification_id,
    step: row.step,
    actor: row.actor,
    at: row.at,
    note: row.note,
  };
}

/**
 * Identifications and their steps. State changes are compare-and-set (the update names the state it expects), so
 * two reviewers confirming at once cannot both be "first".
 */
export class IdentificationRepository {
  /** Which of these persons have a confirmed identification (confirmed, or the family informed of it). */
  async confirmedAmong(personIds: readonly string[]): Promise<Set<string>> {
    if (personIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('identifications')
      .select('person_id')
      .where('person_id', 'in', [...personIds])
      .where('status', 'in', ['confirmed', 'family_informed'])
      .execute();
    return new Set(rows.map((r) => r.person_id));
  }

  constructor(private readonly db: Db) {}

  async insert(row: IdentificationTable): Promise<void> {
    await this.db.insertInto('identifications').values(row).execute();
  }

  async row(id: string): Promise<IdentificationTable | undefined> {
    return this.db.selectFrom('identifications').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async get(id: string): Promise<Identification | undefined> {
    const row = await this.row(id);
    return row ? toIdentification(row) : undefined;
  }

  /** An identification of this item as this person that is still standing (not rejected or withdrawn). */
  async standing(evidenceId: string, personId: string): Promise<Identification | undefined> {
    const row = await this.db
      .selectFrom('identifications')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .where('person_id', '=', personId)
      .where('status', 'in', ['proposed', 'confirmed', 'family_informed'])
      .executeTakeFirst();
    return row ? toIdentification(row) : undefined;
  }

  /** A person's standing identifications (proposed, confirmed, family informed), the most advanced first. */
  async standingOfPerson(personId: string): Promise<Identification[]> {
    const rows = await this.db
      .selectFrom('identifications')
      .selectAll()
      .where('person_id', '=', personId)
      .where('status', 'in', ['proposed', 'confirmed', 'family_informed'])
      .orderBy('proposed_at')
      .execute();
    const rank = (s: string) => (s === 'family_informed' ? 0 : s === 'confirmed' ? 1 : 2);
    return rows.map(toIdentification).sort((a, b) => rank(a.status) - rank(b.status));
  }

  async list(filter: {
    status?: string;
    personId?: string;
    evidenceId?: string;
    beforeId?: string;
    limit: number;
  }) {
    let q = this.db.selectFrom('identifications').selectAll();
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.personId) q = q.where('person_id', '=', filter.personId);
    if (filter.evidenceId) q = q.where('evidence_id', '=', filter.evidenceId);
    if (filter.beforeId) q = q.where('id', '<', filter.beforeId);
    const rows = await q.orderBy('id', 'desc').limit(filter.limit).execute();
    return rows.map(toIdentification);
  }

  /** Applies `set` only if the row still has `expect`; true when it did. */
  async update(
    id: string,
    expect: Partial<Pick<IdentificationTable, 'status' | 'first_confirmed_by' | 'second_confirmed_by'>>,
    set: Partial<Omit<IdentificationTable, 'id'>>,
  ): Promise<boolean> {
    let q = this.db.updateTable('identifications').set(set).where('id', '=', id);
    for (const [column, value] of Object.entries(expect) as [keyof typeof expect, string | null][]) {
      q = value === null ? q.where(column, 'is', null) : q.where(column, '=', value);
    }
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows ?? 0) > 0;
  }

  async addStep(step: Omit<IdentificationStep, 'id'>): Promise<IdentificationStep> {
    const row: IdentificationStepTable = {
      id: newId(),
      identification_id: step.identificationId,
      step: step.step,
      actor: step.actor,
      at: step.at,
      note: step.note,
    };
    await this.db.insertInto('identification_steps').values(row).execute();
    return toStep(row);
  }

  async steps(identificationId: string): Promise<IdentificationStep[]> {
    const rows = await this.db
      .selectFrom('identification_steps')
      .selectAll()
      .where('identification_id', '=', identificationId)
      .orderBy('at')
      .orderBy('id')
      .execute();
    return rows.map(toStep);
  }
}
