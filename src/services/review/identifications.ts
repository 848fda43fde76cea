import type { SignedIn } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import type { IdentificationStepKind } from '../../domain/review.js';
import { newId, nowIso } from '../../ids.js';
import { identificationEntry } from '../../ledger/entries.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import {
  type Identification,
  IdentificationRepository,
  type IdentificationStep,
  toIdentification,
} from '../../store/repositories/identifications.js';
import { LookupRepository } from '../../store/repositories/lookups.js';
import type { Db } from '../../store/store.js';
import type { AppContext } from '../context.js';
import { appendLogEntry } from '../ledger/ledger.js';

/**
 * Writes what a step changed in one transaction: the step (with its note), the tamper-evident log's entry for the
 * identification as it now stands, and the audit row (ids and statuses only: notes may name people).
 */
async function recordStep(
  trx: Db,
  id: string,
  step: IdentificationStepKind,
  actor: SignedIn,
  at: string,
  note: string | null,
): Promise<Identification> {
  const repo = new IdentificationRepository(trx);
  const row = await repo.row(id);
  if (!row) throw new DomainError('not_found', `no identification ${id}`);
  await repo.addStep({ identificationId: id, step, actor: actor.actor.userId, at, note });
  await appendLogEntry(trx, identificationEntry(row, { actor: actor.actor.userId, at }));
  await new AuditRepository(trx).append(
    {
      actorId: actor.actor.userId,
      actorRole: actor.actor.role,
      action: `identification.${step}`,
      subjectType: 'identification',
      subjectId: id,
      details: { evidenceId: row.evidence_id, personId: row.person_id, status: row.status },
      ip: actor.ip,
    },
    at,
  );
  return toIdentification(row);
}

function cleanNote(note: string | null | undefined): string | null {
  return note?.trim() ? note.trim() : null;
}

/**
 * The tracing loop's card matcher, as the proposer of the identifications it finds: not a person, so two
 * reviewers must still confirm each (neither of them the proposer).
 */
export const matcherActor: SignedIn = {
  actor: {
    userId: 'system:matcher',
    username: 'matcher',
    role: 'system',
    via: 'token',
    credentialId: 'matcher',
  },
  ip: null,
  channel: 'cli',
};

/**
 * "Evidence item E depicts person P": proposed by one user, confirmed by two different reviewers (neither the
 * proposer), then marked "family informed" by a liaison. Every step is audited and logged; nothing is deleted —
 * a wrong identification is rejected, and stays on record as such.
 */
export class IdentificationService {
  constructor(private readonly ctx: AppContext) {}

  private now(): string {
    return nowIso(this.ctx.clock);
  }

  async propose(input: {
    evidenceId: string;
    personId: string;
    basis: string;
    actor: SignedIn;
  }): Promise<Identification> {
    const basis = input.basis.trim();
    if (basis.length < 3) throw new DomainError('invalid', 'basis: say what the identification rests on');
    const db = this.ctx.store.db;
    const lookups = new LookupRepository(db);
    if (!(await lookups.exists('evidence_items', input.evidenceId)))
      throw new DomainError('not_found', `no evidence item ${input.evidenceId}`);
    if (!(await lookups.exists('persons', input.personId)))
      throw new DomainError('not_found', `no person ${input.personId}`);
    return this.ctx.store.transaction(async (trx) => {
      const repo = new IdentificationRepository(trx);
      const standing = await repo.standing(input.evidenceId, input.personId);
      if (standing) {
        throw new DomainError(
          'conflict',
          `this item is already identified as this person (identification ${standing.id}, ${standing.status})`,
        );
      }
      const at = this.now();
      const id = newId();
      await repo.insert({
        id,
        evidence_id: input.evidenceId,
        person_id: input.personId,
        status: 'proposed',
        basis,
        proposed_by: input.actor.actor.userId,
        proposed_at: at,
        first_confirmed_by: null,
        first_confirmed_at: null,
        second_confirmed_by: null,
        second_confirmed_at: null,
        informed_by: null,
        informed_at: null,
      });
      return recordStep(trx, id, 'proposed', input.actor, at, null);
    });
  }

  /** One reviewer's confirmation: the first leaves it proposed, the second (a different reviewer) confirms it. */
  async confirm(id: string, actor: SignedIn, note?: string | null): Promise<Identification> {
    return this.ctx.store.transaction(async (trx) => {
      const repo = new IdentificationRepository(trx);
      const current = await repo.get(id);
      if (!current) throw new DomainError('not_found', `no identification ${id}`);
      if (current.status !== 'proposed') {
        throw new DomainError(
          'conflict',
          `identification ${id} is ${current.status}: only a proposed one can be confirmed`,
        );
      }
      if (current.proposedBy === actor.actor.userId) {
        throw new DomainError(
          'conflict',
          'you proposed this identification: two other reviewers must confirm it',
        );
      }
      if (current.firstConfirmedBy === actor.actor.userId) {
        throw new DomainError(
          'conflict',
          'you have already confirmed this identification: a second, different reviewer must confirm it',
        );
      }
      const at = this.now();
      const changed = current.firstConfirmedBy
        ? await repo.update(
            id,
            { status: 'proposed', first_confirmed_by: current.firstConfirmedBy, second_confirmed_by: null },
            { status: 'confirmed', second_confirmed_by: actor.actor.userId, second_confirmed_at: at },
          )
        : await repo.update(
            id,
            { status: 'proposed', first_confirmed_by: null },
            { first_confirmed_by: actor.actor.userId, first_confirmed_at: at },
          );
      if (!changed) throw new DomainError('conflict', `identification ${id} changed meanwhile; reload it`);
      return recordStep(trx, id, 'confirmed', actor, at, cleanNote(note));
    });
  }

  /** A liaison has told the family, in person; only a confirmed identification can be. */
  async familyInformed(id: string, actor: SignedIn, note?: string | null): Promise<Identification> {
    return this.ctx.store.transaction(async (trx) => {
      const repo = new IdentificationRepository(trx);
      const current = await repo.get(id);
      if (!current) throw new DomainError('not_found', `no identification ${id}`);
      if (current.status !== 'confirmed') {
        throw new DomainError(
          'conflict',
          current.status === 'proposed'
            ? `identification ${id} is not confirmed yet: two reviewers must confirm it before the family is told`
            : `identification ${id} is ${current.status}`,
        );
      }
      const at = this.now();
      const changed = await repo.update(
        id,
        { status: 'confirmed' },
        { status: 'family_informed', informed_by: actor.actor.userId, informed_at: at },
      );
      if (!changed) throw new DomainError('conflict', `identification ${id} changed meanwhile; reload it`);
      return recordStep(trx, id, 'family_informed', actor, at, cleanNote(note));
    });
  }

  /** Rejects a proposed or confirmed identification (never one a family was told of: that needs a person). */
  async reject(id: string, actor: SignedIn, note?: string | null): Promise<Identification> {
    return this.ctx.store.transaction(async (trx) => {
      const repo = new IdentificationRepository(trx);
      const current = await repo.get(id);
      if (!current) throw new DomainError('not_found', `no identification ${id}`);
      if (current.status !== 'proposed' && current.status !== 'confirmed') {
        throw new DomainError(
          'conflict',
          `identification ${id} is ${current.status} and cannot be rejected here`,
        );
      }
      const at = this.now();
      const changed = await repo.update(id, { status: current.status }, { status: 'rejected' });
      if (!changed) throw new DomainError('conflict', `identification ${id} changed meanwhile; reload it`);
      return recordStep(trx, id, 'rejected', actor, at, cleanNote(note));
    });
  }

  async get(
    id: string,
  ): Promise<{ identification: Identification; steps: IdentificationStep[] } | undefined> {
    const repo = new IdentificationRepository(this.ctx.store.db);
    const identification = await repo.get(id);
    return identification ? { identification, steps: await repo.steps(id) } : undefined;
  }

  async list(filter: {
    status?: string;
    personId?: string;
    evidenceId?: string;
    before?: string;
    limit: number;
  }) {
    const found = await new IdentificationRepository(this.ctx.store.db).list({
      status: filter.status,
      personId: filter.personId,
      evidenceId: filter.evidenceId,
      beforeId: filter.before,
      limit: filter.limit + 1,
    });
    const items = found.slice(0, filter.limit);
    return found.length > filter.limit ? { items, nextCursor: items[items.length - 1]?.id } : { items };
  }
}
