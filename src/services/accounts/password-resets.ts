import { passwordResetRequestHours } from '../../access/account-rules.js';
import type { Caller, SignedIn } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { newId } from '../../ids.js';
import {
  PasswordResetRepository,
  type PasswordResetRequestRow,
} from '../../store/repositories/password-resets.js';
import { type User, UserRepository } from '../../store/repositories/users.js';
import type { Db } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';

/** A password reset awaiting a second admin, as the users screen shows it. */
export interface PasswordResetRequestView {
  id: string;
  userId: string;
  username: string | null;
  /** The account's role now. */
  role: string | null;
  resetTotp: boolean;
  status: string;
  requestedBy: string;
  requestedByName: string | null;
  requestedAt: string;
  expiresAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
}

/** What the account service lends: a new password, the reset itself (in a transaction) and what follows it. */
export interface ResetSteps {
  newPassword(): Promise<{ password: string; hash: string }>;
  apply(
    db: Db,
    userId: string,
    hash: string,
    resetTotp: boolean,
  ): Promise<{ username: string; sessionsEnded: number; tokensRevoked: number }>;
  afterReset(username: string): Promise<void>;
}

/** The message of a request that cannot be made: only one admin, who would approve their own reset. */
export const secondAdminNeeded =
  'a second admin is needed: this reset would leave an account that reads contacts or originals without an enrolled authenticator, so another admin must approve it, and this installation has no other admin who can sign in. Make a second admin, or reset it from the server with athar users reset-password USERNAME [--reset-totp]';

/**
 * Password resets by two admins (issue 21, Security 10; docs/access.md). One admin asks; another approves (the reset
 * happens then, and the approver is shown the one-time password) or refuses; the one who asked may cancel; a request
 * lapses after `passwordResetRequestHours`. Every step is an audit row about the account.
 */
export class PasswordResetRequests {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
    private readonly steps: ResetSteps,
  ) {}

  private repo(db: Db = this.ctx.store.db): PasswordResetRepository {
    return new PasswordResetRepository(db);
  }

  private iso(ms = this.ctx.clock()): string {
    return new Date(ms).toISOString();
  }

  /** Asks for a reset of `user` that a second admin must approve. */
  async request(user: User, resetTotp: boolean, caller: SignedIn): Promise<PasswordResetRequestView> {
    const requester = caller.actor.userId;
    if (user.id === requester) {
      throw new DomainError('forbidden', 'an admin may not ask for a reset of their own password here');
    }
    await this.expire();
    const users = new UserRepository(this.ctx.store.db);
    if ((await users.countActiveAdmins(requester)) === 0) {
      throw new DomainError('conflict', secondAdminNeeded);
    }
    const now = this.ctx.clock();
    const row: PasswordResetRequestRow = {
      id: newId(),
      user_id: user.id,
      reset_totp: resetTotp ? 1 : 0,
      status: 'requested',
      requested_by: requester,
      requested_at: this.iso(now),
      expires_at: this.iso(now + passwordResetRequestHours * 3_600_000),
      decided_by: null,
      decided_at: null,
    };
    await this.ctx.store.transaction(async (trx) => {
      // One request per account awaits at a time (a unique partial index holds the line against a race).
      if (await this.repo(trx).awaitingFor(user.id)) {
        throw new DomainError(
          'conflict',
          `a password reset of ${user.username} already awaits a second admin: approve, refuse or cancel it first`,
        );
      }
      await this.repo(trx).insert(row);
    });
    await this.audit.record(caller, {
      action: 'password_reset_requested',
      subjectType: 'user',
      subjectId: user.id,
      details: { request: row.id, resetTotp, expiresAt: row.expires_at },
    });
    return (await this.present([row]))[0] as PasswordResetRequestView;
  }

  /** Every request awaiting a decision (lapsed ones first marked so). */
  async awaiting(): Promise<PasswordResetRequestView[]> {
    await this.expire();
    return this.present(await this.repo().awaiting());
  }

  /** A request still awaiting a decision, or the refusal that says why it cannot be decided. */
  private async open(id: string): Promise<PasswordResetRequestRow> {
    await this.expire();
    const row = await this.repo().get(id);
    if (!row) throw new DomainError('not_found', `no password reset request ${id}`);
    if (row.status !== 'requested') {
      throw new DomainError(
        'conflict',
        `password reset request ${id} is ${row.status}, not awaiting a decision`,
      );
    }
    return row;
  }

  /** The second admin's checks: never the one who asked, never about oneself. */
  private decider(row: PasswordResetRequestRow, caller: SignedIn, verb: 'approve' | 'refuse'): void {
    if (row.requested_by === caller.actor.userId) {
      throw new DomainError(
        'forbidden',
        verb === 'approve'
          ? 'you asked for this reset: another admin must approve it'
          : 'you asked for this reset: cancel it instead, or let another admin refuse it',
      );
    }
    if (row.user_id === caller.actor.userId) {
      throw new DomainError('forbidden', `an admin may not ${verb} a reset of their own password`);
    }
  }

  /** A second admin approves: the reset happens now and they are shown the one-time password. */
  async approve(
    id: string,
    caller: SignedIn,
  ): Promise<{ password: string; request: PasswordResetRequestView }> {
    const row = await this.open(id);
    this.decider(row, caller, 'approve');
    const { password, hash } = await this.steps.newPassword();
    const at = this.iso();
    const done = await this.ctx.store.transaction(async (trx) => {
      const settled = await this.repo(trx).settle(id, {
        status: 'approved',
        decided_by: caller.actor.userId,
        decided_at: at,
      });
      if (!settled) throw new DomainError('conflict', `password reset request ${id} was decided meanwhile`);
      return this.steps.apply(trx, row.user_id, hash, row.reset_totp === 1);
    });
    await this.steps.afterReset(done.username);
    await this.audit.record(caller, {
      action: 'password_reset_approved',
      subjectType: 'user',
      subjectId: row.user_id,
      details: { request: id, requestedBy: row.requested_by },
    });
    await this.audit.record(caller, {
      action: 'password_reset',
      subjectType: 'user',
      subjectId: row.user_id,
      details: {
        resetTotp: row.reset_totp === 1,
        request: id,
        sessionsEnded: done.sessionsEnded,
        tokensRevoked: done.tokensRevoked,
      },
    });
    const request = (await this.present([(await this.repo().get(id)) as PasswordResetRequestRow]))[0];
    return { password, request: request as PasswordResetRequestView };
  }

  /** A second admin refuses: nothing changes on the account. */
  async refuse(id: string, caller: SignedIn): Promise<PasswordResetRequestView> {
    const row = await this.open(id);
    this.decider(row, caller, 'refuse');
    await this.settleOrConflict(id, 'refused', caller.actor.userId);
    await this.audit.record(caller, {
      action: 'password_reset_refused',
      subjectType: 'user',
      subjectId: row.user_id,
      details: { request: id, requestedBy: row.requested_by },
    });
    return (
      await this.present([(await this.repo().get(id)) as PasswordResetRequestRow])
    )[0] as PasswordResetRequestView;
  }

  /** The admin who asked takes it back. */
  async cancel(id: string, caller: SignedIn): Promise<void> {
    const row = await this.open(id);
    if (row.requested_by !== caller.actor.userId) {
      throw new DomainError(
        'forbidden',
        'only the admin who asked for this reset may cancel it; you may refuse it',
      );
    }
    await this.settleOrConflict(id, 'cancelled', caller.actor.userId);
    await this.audit.record(caller, {
      action: 'password_reset_cancelled',
      subjectType: 'user',
      subjectId: row.user_id,
      details: { request: id },
    });
  }

  private async settleOrConflict(id: string, status: string, by: string): Promise<void> {
    if (!(await this.repo().settle(id, { status, decided_by: by, decided_at: this.iso() }))) {
      throw new DomainError('conflict', `password reset request ${id} was decided meanwhile`);
    }
  }

  /** Marks requests past their time as lapsed, each an audit row by nobody; answers how many. */
  async expire(): Promise<number> {
    const now = this.iso();
    const due = await this.repo().expiredBy(now);
    const system: Caller = { actor: null, ip: null, channel: 'http' };
    let lapsed = 0;
    for (const row of due) {
      if (!(await this.repo().settle(row.id, { status: 'expired', decided_by: null, decided_at: now })))
        continue;
      lapsed++;
      await this.audit.record(system, {
        action: 'password_reset_expired',
        subjectType: 'user',
        subjectId: row.user_id,
        details: { request: row.id, requestedBy: row.requested_by },
      });
    }
    return lapsed;
  }

  private async present(rows: PasswordResetRequestRow[]): Promise<PasswordResetRequestView[]> {
    const users = new UserRepository(this.ctx.store.db);
    const ids = new Set(rows.flatMap((r) => [r.user_id, r.requested_by]));
    const names = await users.namesOf([...ids]);
    const accounts = new Map<string, User>();
    for (const r of rows) {
      const user = accounts.get(r.user_id) ?? (await users.findById(r.user_id));
      if (user) accounts.set(r.user_id, user);
    }
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      username: accounts.get(r.user_id)?.username ?? null,
      role: accounts.get(r.user_id)?.role ?? null,
      resetTotp: r.reset_totp === 1,
      status: r.status,
      requestedBy: r.requested_by,
      requestedByName: names.get(r.requested_by) ?? null,
      requestedAt: r.requested_at,
      expiresAt: r.expires_at,
      decidedBy: r.decided_by,
      decidedAt: r.decided_at,
    }));
  }
}
