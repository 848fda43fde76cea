import { accountRequestHours } from '../../access/account-rules.js';
import type { Caller, SignedIn } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { newId } from '../../ids.js';
import {
  AccountRequestRepository,
  type AccountRequestRow,
} from '../../store/repositories/account-requests.js';
import { type User, UserRepository } from '../../store/repositories/users.js';
import type { Db } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';

/** A user change as written: the rows before and after, and the credentials it ended. */
export interface UserChange {
  before: User;
  after: User;
  ended: { sessionsEnded: number; tokensRevoked: number } | undefined;
}

/** What a second admin is asked to approve. */
export type AccountRequestKind = 'password_reset' | 'role_change';

/** A request awaiting a second admin, as the users screen shows it. */
export interface AccountRequestView {
  id: string;
  kind: AccountRequestKind;
  userId: string;
  username: string | null;
  /** The account's role now. */
  role: string | null;
  /** The role asked for (a role change); null for a reset. */
  toRole: string | null;
  resetTotp: boolean;
  status: string;
  requestedBy: string;
  requestedByName: string | null;
  requestedAt: string;
  expiresAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
}

/** What the account service lends: the change itself (in a transaction) and what follows it. */
export interface RequestSteps {
  newPassword(): Promise<{ password: string; hash: string }>;
  applyReset(
    db: Db,
    userId: string,
    hash: string,
    resetTotp: boolean,
  ): Promise<{ username: string; sessionsEnded: number; tokensRevoked: number }>;
  afterReset(username: string): Promise<void>;
  /** An approved role change, in the caller's transaction, with the checks of `PATCH /api/users/:id { role }`. */
  applyRoleChange(db: Db, userId: string, role: string): Promise<UserChange>;
  /** What follows any user change: credentials seen anew, the `user_updated` row. */
  afterUpdate(change: UserChange, caller: Caller, request?: string): Promise<void>;
}

/** The message of a reset that cannot be asked for: only one admin, who would approve their own request. */
export const secondAdminNeeded =
  'a second admin is needed: this reset would leave an account that reads contacts or originals without an enrolled authenticator, so another admin must approve it, and this installation has no other admin who can sign in. Make a second admin, or reset it from the server with athar users reset-password USERNAME [--reset-totp]';

/** The same for a role change that grants contacts or originals. */
export const secondAdminNeededForRole =
  'a second admin is needed: this role reads contacts or originals the account could not read before, so another admin must approve the change, and this installation has no other admin who can sign in. Make a second admin, or change the role from the server with athar users set-role USERNAME ROLE';

const what: Record<AccountRequestKind, string> = {
  password_reset: 'password reset',
  role_change: 'role change',
};

/**
 * Account changes by two admins (issue 21, Security 10; docs/access.md): a password reset that would leave a reader
 * of contacts or originals without an authenticator, and a role change that newly grants contacts or originals. One
 * admin asks; another approves (the change happens then; for a reset the approver is shown the one-time password)
 * or refuses; the one who asked may cancel; a request lapses after `accountRequestHours`. Every step is an audit row
 * about the account, named `<kind>_requested|approved|refused|cancelled|expired`.
 */
export class AccountRequests {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
    private readonly steps: RequestSteps,
  ) {}

  private repo(db: Db = this.ctx.store.db): AccountRequestRepository {
    return new AccountRequestRepository(db);
  }

  private iso(ms = this.ctx.clock()): string {
    return new Date(ms).toISOString();
  }

  /** Asks for a reset of `user` that a second admin must approve. */
  async requestReset(user: User, resetTotp: boolean, caller: SignedIn): Promise<AccountRequestView> {
    return this.request(user, { kind: 'password_reset', resetTotp, role: null }, caller);
  }

  /** Asks for `user` to be given `role`, which a second admin must approve. */
  async requestRoleChange(user: User, role: string, caller: SignedIn): Promise<AccountRequestView> {
    return this.request(user, { kind: 'role_change', resetTotp: false, role }, caller);
  }

  private async request(
    user: User,
    asked: { kind: AccountRequestKind; resetTotp: boolean; role: string | null },
    caller: SignedIn,
  ): Promise<AccountRequestView> {
    const requester = caller.actor.userId;
    if (user.id === requester) {
      throw new DomainError(
        'forbidden',
        `an admin may not ask for a ${what[asked.kind]} of their own account here`,
      );
    }
    await this.expire();
    const users = new UserRepository(this.ctx.store.db);
    if ((await users.countActiveAdmins(requester)) === 0) {
      throw new DomainError(
        'conflict',
        asked.kind === 'password_reset' ? secondAdminNeeded : secondAdminNeededForRole,
      );
    }
    const now = this.ctx.clock();
    const row: AccountRequestRow = {
      id: newId(),
      user_id: user.id,
      kind: asked.kind,
      reset_totp: asked.resetTotp ? 1 : 0,
      role: asked.role,
      status: 'requested',
      requested_by: requester,
      requested_at: this.iso(now),
      expires_at: this.iso(now + accountRequestHours * 3_600_000),
      decided_by: null,
      decided_at: null,
    };
    await this.ctx.store.transaction(async (trx) => {
      // One request per account awaits at a time (a unique partial index holds the line against a race).
      const awaiting = await this.repo(trx).awaitingFor(user.id);
      if (awaiting) {
        throw new DomainError(
          'conflict',
          `a ${what[awaiting.kind as AccountRequestKind] ?? 'request'} of ${user.username} already awaits a second admin: approve, refuse or cancel it first`,
        );
      }
      await this.repo(trx).insert(row);
    });
    await this.audit.record(caller, {
      action: `${asked.kind}_requested`,
      subjectType: 'user',
      subjectId: user.id,
      details:
        asked.kind === 'password_reset'
          ? { request: row.id, resetTotp: asked.resetTotp, expiresAt: row.expires_at }
          : { request: row.id, role: { from: user.role, to: asked.role }, expiresAt: row.expires_at },
    });
    return (await this.present([row]))[0] as AccountRequestView;
  }

  /** Every request awaiting a decision (lapsed ones first marked so). */
  async awaiting(): Promise<AccountRequestView[]> {
    await this.expire();
    return this.present(await this.repo().awaiting());
  }

  /** A request still awaiting a decision, or the refusal that says why it cannot be decided. */
  private async open(id: string): Promise<AccountRequestRow> {
    await this.expire();
    const row = await this.repo().get(id);
    if (!row) throw new DomainError('not_found', `no account request ${id}`);
    if (row.status !== 'requested') {
      throw new DomainError('conflict', `account request ${id} is ${row.status}, not awaiting a decision`);
    }
    return row;
  }

  /** The second admin's checks: never the one who asked, never about oneself. */
  private decider(row: AccountRequestRow, caller: SignedIn, verb: 'approve' | 'refuse'): void {
    const name = what[row.kind as AccountRequestKind];
    if (row.requested_by === caller.actor.userId) {
      throw new DomainError(
        'forbidden',
        verb === 'approve'
          ? `you asked for this ${name}: another admin must approve it`
          : `you asked for this ${name}: cancel it instead, or let another admin refuse it`,
      );
    }
    if (row.user_id === caller.actor.userId) {
      throw new DomainError('forbidden', `an admin may not ${verb} a ${name} of their own account`);
    }
  }

  /**
   * A second admin approves: the change happens now. For a reset they are shown the one-time password; a role
   * change ends the account's credentials as any role change does.
   */
  async approve(id: string, caller: SignedIn): Promise<{ password?: string; request: AccountRequestView }> {
    const row = await this.open(id);
    this.decider(row, caller, 'approve');
    const decision = { status: 'approved', decided_by: caller.actor.userId, decided_at: this.iso() };
    let password: string | undefined;
    if (row.kind === 'role_change') {
      // Settled and carried out in one transaction: two approvals cannot both change the role, and a change refused
      // meanwhile (the last admin) leaves the request awaiting.
      const changed = await this.ctx.store.transaction(async (trx) => {
        if (!(await this.repo(trx).settle(id, decision))) {
          throw new DomainError('conflict', `account request ${id} was decided meanwhile`);
        }
        return this.steps.applyRoleChange(trx, row.user_id, row.role as string);
      });
      await this.audit.record(caller, {
        action: 'role_change_approved',
        subjectType: 'user',
        subjectId: row.user_id,
        details: { request: id, requestedBy: row.requested_by, role: row.role },
      });
      await this.steps.afterUpdate(changed, caller, id);
    } else {
      const fresh = await this.steps.newPassword();
      password = fresh.password;
      const done = await this.ctx.store.transaction(async (trx) => {
        if (!(await this.repo(trx).settle(id, decision))) {
          throw new DomainError('conflict', `account request ${id} was decided meanwhile`);
        }
        return this.steps.applyReset(trx, row.user_id, fresh.hash, row.reset_totp === 1);
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
    }
    const request = (await this.present([(await this.repo().get(id)) as AccountRequestRow]))[0];
    return { ...(password !== undefined ? { password } : {}), request: request as AccountRequestView };
  }

  /** A second admin refuses: nothing changes on the account. */
  async refuse(id: string, caller: SignedIn): Promise<AccountRequestView> {
    const row = await this.open(id);
    this.decider(row, caller, 'refuse');
    await this.settleOrConflict(id, 'refused', caller.actor.userId);
    await this.audit.record(caller, {
      action: `${row.kind}_refused`,
      subjectType: 'user',
      subjectId: row.user_id,
      details: { request: id, requestedBy: row.requested_by },
    });
    return (await this.present([(await this.repo().get(id)) as AccountRequestRow]))[0] as AccountRequestView;
  }

  /** The admin who asked takes it back. */
  async cancel(id: string, caller: SignedIn): Promise<void> {
    const row = await this.open(id);
    if (row.requested_by !== caller.actor.userId) {
      throw new DomainError(
        'forbidden',
        `only the admin who asked for this ${what[row.kind as AccountRequestKind]} may cancel it; you may refuse it`,
      );
    }
    await this.settleOrConflict(id, 'cancelled', caller.actor.userId);
    await this.audit.record(caller, {
      action: `${row.kind}_cancelled`,
      subjectType: 'user',
      subjectId: row.user_id,
      details: { request: id },
    });
  }

  private async settleOrConflict(id: string, status: string, by: string): Promise<void> {
    if (!(await this.repo().settle(id, { status, decided_by: by, decided_at: this.iso() }))) {
      throw new DomainError('conflict', `account request ${id} was decided meanwhile`);
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
        action: `${row.kind}_expired`,
        subjectType: 'user',
        subjectId: row.user_id,
        details: { request: row.id, requestedBy: row.requested_by },
      });
    }
    return lapsed;
  }

  private async present(rows: AccountRequestRow[]): Promise<AccountRequestView[]> {
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
      kind: r.kind as AccountRequestKind,
      userId: r.user_id,
      username: accounts.get(r.user_id)?.username ?? null,
      role: accounts.get(r.user_id)?.role ?? null,
      toRole: r.role,
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
