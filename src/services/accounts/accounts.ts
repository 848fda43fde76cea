import {
  minPasswordLength,
  passwordChangeLimits,
  resetNeedsSecondAdmin,
  roleChangeNeedsSecondAdmin,
} from '../../access/account-rules.js';
import type { Actor } from '../../access/actor.js';
import type { Caller } from '../../access/caller.js';
import { isCommonPassword } from '../../access/common-passwords.js';
import { generatePassword, hashPassword, verifyPassword } from '../../access/passwords.js';
import { type Permission, permissionsOf } from '../../access/policies.js';
import { isRole } from '../../access/roles.js';
import { newSecret, secretDigest } from '../../access/secrets.js';
import { sessionIdleMs, tokenExpiry } from '../../access/sessions.js';
import { newTotpSecret, totpStep, totpUri } from '../../access/totp.js';
import { DomainError } from '../../domain/errors.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import {
  type ApiToken,
  CredentialRepository,
  credentialsChanged,
} from '../../store/repositories/credentials.js';
import { type User, type UserPatch, UserRepository } from '../../store/repositories/users.js';
import type { Db } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { isSealed } from '../keys/installation-keys.js';
import { SignInBackoff } from '../limits/backoff.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { AccountRequests, type AccountRequestView, type UserChange } from './account-requests.js';
import { TotpSeeds } from './totp-seeds.js';

/** Why a sign-in failed, for the audit log; the caller learns only the refusal. */
export type SignInFailure =
  | 'address_backoff'
  | 'username_backoff'
  | 'unknown_user'
  | 'password'
  | 'disabled'
  | 'totp_missing'
  | 'totp_wrong'
  | 'totp_replayed';

export type SignInOutcome =
  | {
      ok: true;
      user: User;
      /** The cookie's value: shown to the browser once, stored only as its SHA-256 (the session id). */
      token: string;
      sessionId: string;
      csrfToken: string;
      enrolmentOnly: boolean;
    }
  | {
      ok: false;
      refusal: 'rate_limited' | 'unauthenticated' | 'totp_required';
      failure: SignInFailure;
      userId?: string;
      /** Seconds until a caller held back may try again. */
      retryAfter?: number;
    };

/** A hash to verify against when the username is unknown, so the answer takes as long as for a known one. */
let dummyHash: Promise<string> | undefined;

/** Sign-in, passwords, TOTP enrolment, API tokens and user administration: the accounts of issue 7. */
export class AccountService {
  /** The sign-in back-off per address and per typed username (src/services/limits/backoff.ts). */
  readonly backoff: SignInBackoff;
  /** TOTP seeds, sealed at rest (src/services/accounts/totp-seeds.ts). */
  readonly totpSeeds: TotpSeeds;

  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {
    this.backoff = new SignInBackoff(ctx.config, () => ctx.store.db);
    this.totpSeeds = new TotpSeeds(ctx.config, () => ctx.store.db);
    this.limiter = new RateLimiter(ctx);
    this.requests = new AccountRequests(ctx, audit, {
      newPassword: () => this.newPassword(),
      applyReset: (db, id, hash, resetTotp) => this.applyReset(db, id, hash, resetTotp),
      afterReset: (username) => this.afterReset(username),
      applyRoleChange: (db, id, role) => this.applyUpdate(db, id, { role }),
      afterUpdate: (change, caller, request) => this.afterUpdate(change, caller, request),
    });
  }

  /** Resets and role changes awaiting a second admin (src/services/accounts/account-requests.ts). */
  readonly requests: AccountRequests;

  /** Keyed, epoch-aligned counters (src/services/limits/rate-limiter.ts): guesses at the current password. */
  private readonly limiter: RateLimiter;

  private get store() {
    return this.ctx.store;
  }

  private clock(): number {
    return this.ctx.clock();
  }

  private get users() {
    return new UserRepository(this.store.db);
  }

  private get credentials() {
    return new CredentialRepository(this.store.db);
  }

  private iso(ms = this.clock()): string {
    return new Date(ms).toISOString();
  }

  /** Signs in, and audits the attempt: a failure names the user by id when known, never the typed username. */
  async signIn(
    input: { username: string; password: string; totp?: string },
    caller: Caller,
  ): Promise<SignInOutcome> {
    const outcome = await this.attemptSignIn({ ...input, address: caller.ip ?? '' });
    if (!outcome.ok) {
      await this.audit.record(caller, {
        action: 'sign_in_failed',
        ...(outcome.userId ? { subjectType: 'user', subjectId: outcome.userId } : {}),
        details: { reason: outcome.failure },
      });
      return outcome;
    }
    const { user } = outcome;
    const actor: Actor = {
      userId: user.id,
      username: user.username,
      role: user.role,
      via: 'session',
      credentialId: outcome.sessionId,
    };
    await this.audit.record(
      { ...caller, actor },
      {
        action: 'sign_in',
        subjectType: 'user',
        subjectId: user.id,
        details: { totp: user.totpEnrolled, enrolmentOnly: outcome.enrolmentOnly },
      },
    );
    return outcome;
  }

  /**
   * One attempt, let in (and counted) by the back-off first: a refusal there answers 429 alike for known and unknown
   * usernames, before any password is checked. What turns out not to be a failure is taken back.
   */
  private async attemptSignIn(input: {
    username: string;
    password: string;
    totp?: string;
    address: string;
  }): Promise<SignInOutcome> {
    const now = this.clock();
    const admitted = await this.backoff.admit(input.address, input.username, now);
    if (!admitted.ok) {
      return {
        ok: false,
        refusal: 'rate_limited',
        failure: admitted.failure,
        retryAfter: admitted.retryAfter,
      };
    }
    const outcome = await this.checkSignIn(input, now);
    if (outcome.ok) await this.backoff.succeeded(admitted);
    else if (outcome.failure === 'totp_missing') await this.backoff.notAFailure(admitted);
    return outcome;
  }

  private async checkSignIn(
    input: { username: string; password: string; totp?: string },
    now: number,
  ): Promise<SignInOutcome> {
    const row = await this.users.signInRow({ username: input.username });
    if (!row) {
      dummyHash ??= hashPassword(newSecret());
      await verifyPassword(await dummyHash, input.password);
      return { ok: false, refusal: 'unauthenticated', failure: 'unknown_user' };
    }
    const userId = row.id;
    if (!(await verifyPassword(row.password_hash, input.password))) {
      return { ok: false, refusal: 'unauthenticated', failure: 'password', userId };
    }
    // Checked after the password so that a disabled account answers like a wrong password, in the same time.
    if (row.disabled === 1) return { ok: false, refusal: 'unauthenticated', failure: 'disabled', userId };
    if (row.totp_secret) {
      // Asking for the code is the normal second step, not a failure.
      if (!input.totp) return { ok: false, refusal: 'totp_required', failure: 'totp_missing', userId };
      const secret = await this.totpSeeds.open(userId, row.totp_secret);
      const step = totpStep(secret, input.totp, now);
      if (step === null) return { ok: false, refusal: 'totp_required', failure: 'totp_wrong', userId };
      if (!(await this.users.acceptTotpStep(userId, step))) {
        return { ok: false, refusal: 'totp_required', failure: 'totp_replayed', userId };
      }
    }

    const enrolmentOnly = row.totp_required === 1 && !row.totp_secret;
    const token = newSecret();
    const sessionId = secretDigest(token);
    const csrfToken = newSecret(18);
    await this.credentials.createSession({
      id: sessionId,
      userId,
      csrfToken,
      expiresAt: this.iso(now + sessionIdleMs),
      enrolmentOnly,
      now: this.iso(now),
    });
    const user = (await this.users.findById(userId)) as User;
    return { ok: true, user, token, sessionId, csrfToken, enrolmentOnly };
  }

  /**
   * `athar users unlock USERNAME`: ends the back-off of a username (known or not) and, when asked, of one address
   * or of every address. The recovery path of an admin held back by someone guessing (docs/access.md).
   */
  async unlock(
    username: string,
    options: { address?: string; allAddresses?: boolean },
    caller: Caller,
  ): Promise<{ cleared: number; userId?: string }> {
    const cleared = await this.backoff.unlock(username, {
      ...(options.address ? { address: options.address } : {}),
      ...(options.allAddresses ? { all: true } : {}),
    });
    const user = await this.users.findByUsername(username);
    await this.audit.record(caller, {
      action: 'sign_in_unlocked',
      ...(user ? { subjectType: 'user', subjectId: user.id } : {}),
      details: {
        cleared,
        address: options.address ? 'one' : options.allAddresses ? 'all' : 'none',
      },
    });
    return { cleared, ...(user ? { userId: user.id } : {}) };
  }

  /** Ends a session without an act of its own (a new sign-in replaces the old session). */
  async endSession(sessionId: string): Promise<void> {
    await this.credentials.deleteSession(sessionId);
  }

  /** The caller signs out: their session ends. */
  async signOut(caller: Caller & { actor: Actor }): Promise<void> {
    await this.credentials.deleteSession(caller.actor.credentialId);
    await this.audit.record(caller, {
      action: 'sign_out',
      subjectType: 'user',
      subjectId: caller.actor.userId,
    });
  }

  /**
   * A person changes their own password; their other sessions end and every token of theirs is revoked (someone
   * who held the old password, or the one-time password, may hold one).
   */
  async changePassword(
    input: { current: string; next: string },
    caller: Caller & { actor: Actor },
  ): Promise<{ retryAfter?: number }> {
    const userId = caller.actor.userId;
    const sessionId = caller.actor.credentialId;
    if (input.next.length < minPasswordLength) {
      throw new DomainError('invalid', `use at least ${minPasswordLength} characters`, { field: 'next' });
    }
    // Each attempt checks a guess at the current password: a stolen session must not try them without end.
    const limit = passwordChangeLimits;
    const attempt = await this.limiter.hit('me-password', userId, limit);
    if (attempt.over) {
      await this.audit.record(caller, {
        action: 'password_change_failed',
        subjectType: 'user',
        subjectId: userId,
        details: { reason: 'rate_limited' },
      });
      return { retryAfter: attempt.retryAfter };
    }
    const row = await this.users.signInRow({ id: userId });
    if (!row || !(await verifyPassword(row.password_hash, input.current))) {
      await this.audit.record(caller, {
        action: 'password_change_failed',
        subjectType: 'user',
        subjectId: userId,
        details: { reason: 'current' },
      });
      throw new DomainError('invalid', 'the current password is not right', { field: 'current' });
    }
    if (input.next === input.current) {
      throw new DomainError('invalid', 'choose a password different from the current one', { field: 'next' });
    }
    if (isCommonPassword(input.next, caller.actor.username)) {
      throw new DomainError('invalid', 'this password is among the first an attacker tries; choose another', {
        field: 'next',
      });
    }
    const hash = await hashPassword(input.next);
    const ended = await this.store.transaction(async (trx) => {
      await new UserRepository(trx).setPassword(userId, hash, false);
      return new CredentialRepository(trx).endCredentialsOf(userId, this.iso(), sessionId);
    });
    credentialsChanged();
    await this.audit.record(caller, {
      action: 'password_changed',
      subjectType: 'user',
      subjectId: userId,
      details: ended,
    });
    return {};
  }

  /** Offers a new TOTP secret; it becomes active only when a code from it is confirmed. */
  async startTotp(userId: string, username: string): Promise<{ secret: string; uri: string }> {
    const row = await this.users.signInRow({ id: userId });
    if (!row) throw new DomainError('not_found', 'no such user');
    if (row.totp_secret) {
      throw new DomainError('conflict', 'TOTP is already set up; an admin can reset it (password reset)');
    }
    const secret = newTotpSecret();
    await this.users.setPendingTotp(userId, this.totpSeeds.seal(userId, secret));
    return { secret, uri: totpUri(secret, username) };
  }

  /** Activates the pending secret with a code from the app; the user's sessions are no longer limited. */
  async confirmTotp(code: string, caller: Caller & { actor: Actor }): Promise<void> {
    const userId = caller.actor.userId;
    const row = await this.users.signInRow({ id: userId });
    if (!row?.totp_pending_secret) {
      throw new DomainError('conflict', 'start enrolment first (POST /api/me/totp)');
    }
    const stored = row.totp_pending_secret;
    const step = totpStep(this.totpSeeds.openPending(userId, stored), code, this.clock());
    if (step === null)
      throw new DomainError('invalid', 'the code does not match; check the app', { field: 'code' });
    // The seed stays sealed: the pending value becomes the active one as it is.
    const active = isSealed(stored) ? stored : this.totpSeeds.seal(userId, stored);
    await this.store.transaction(async (trx) => {
      await new UserRepository(trx).activateTotp(userId, active, step);
      await new CredentialRepository(trx).endEnrolment(userId);
    });
    credentialsChanged();
    await this.audit.record(caller, { action: 'totp_enrolled', subjectType: 'user', subjectId: userId });
  }

  async listTokens(userId: string): Promise<ApiToken[]> {
    return this.credentials.tokensOf(userId);
  }

  /** An admin reads another user's tokens (never the tokens themselves); audited. */
  async tokensOfUser(userId: string, caller: Caller): Promise<ApiToken[]> {
    if (!(await this.users.findById(userId))) throw new DomainError('not_found', `no user ${userId}`);
    const tokens = await this.credentials.tokensOf(userId);
    await this.audit.record(caller, {
      action: 'tokens_listed',
      subjectType: 'user',
      subjectId: userId,
      details: { count: tokens.length },
    });
    return tokens;
  }

  /** An admin revokes one token of a user, or (without `tokenId`) every live one; audited per token. */
  async revokeTokensOfUser(userId: string, tokenId: string | undefined, caller: Caller): Promise<number> {
    if (!(await this.users.findById(userId))) throw new DomainError('not_found', `no user ${userId}`);
    const now = this.iso();
    let revoked: string[];
    if (tokenId === undefined) revoked = await this.credentials.revokeTokensOf(userId, now);
    else {
      if (!(await this.credentials.revokeToken(tokenId, userId, now))) {
        throw new DomainError('not_found', `no live token ${tokenId} of user ${userId}`);
      }
      revoked = [tokenId];
    }
    for (const id of revoked) {
      await this.audit.record(caller, {
        action: 'token_revoked',
        subjectType: 'api_token',
        subjectId: id,
        details: { owner: userId, by: 'admin' },
      });
    }
    return revoked.length;
  }

  /** A token for scripts, shown once; its scopes must be permissions the owner's role has. */
  async createToken(
    input: { name: string; scopes: readonly string[]; expiresInDays?: number },
    caller: Caller & { actor: Actor },
  ): Promise<ApiToken & { token: string }> {
    const allowed = permissionsOf(caller.actor.role);
    input.scopes.forEach((scope, i) => {
      if (!allowed.has(scope as Permission)) {
        throw new DomainError(
          'invalid',
          `scope ${scope} is not among your permissions (${[...allowed].join(', ')})`,
          { field: `scopes.${i}` },
        );
      }
    });
    const now = this.clock();
    const token = `athar_${newSecret()}`;
    const created = await this.credentials.createToken({
      userId: caller.actor.userId,
      name: input.name,
      tokenHash: secretDigest(token),
      scopes: [...new Set(input.scopes as Permission[])],
      expiresAt: tokenExpiry(now, input.expiresInDays),
      now: this.iso(now),
    });
    await this.audit.record(caller, {
      action: 'token_created',
      subjectType: 'api_token',
      subjectId: created.id,
      details: { scopes: created.scopes, expiresAt: created.expiresAt },
    });
    return { ...created, token };
  }

  async revokeToken(id: string, caller: Caller & { actor: Actor }): Promise<void> {
    if (!(await this.credentials.revokeToken(id, caller.actor.userId, this.iso()))) {
      throw new DomainError('not_found', `no live token ${id} of yours`);
    }
    await this.audit.record(caller, { action: 'token_revoked', subjectType: 'api_token', subjectId: id });
  }

  /** An account by its username, as stored now. */
  async userByName(username: string): Promise<User | undefined> {
    return this.users.findByUsername(username);
  }

  /** The account behind a caller, as stored now. */
  async user(id: string): Promise<User | undefined> {
    return this.users.findById(id);
  }

  /** Every account, with the time of its last sign-in (from the audit log, which records each one). */
  async listUsers(): Promise<(User & { lastSignInAt: string | null })[]> {
    const users = await this.users.list();
    const last = await new AuditRepository(this.store.db).latestActs(
      'sign_in',
      'user',
      users.map((u) => u.id),
    );
    return users.map((u) => ({ ...u, lastSignInAt: last.get(u.id) ?? null }));
  }

  /** Whether accounts of this role must use TOTP (ATHAR_TOTP_ROLES; docs/access.md "TOTP"). */
  mustUseTotp(role: string): boolean {
    return (this.ctx.config.accounts.totpRoles as readonly string[]).includes(role);
  }

  private totpRuleError(role: string): DomainError {
    return new DomainError(
      'invalid',
      `a ${role} must use TOTP on this installation (ATHAR_TOTP_ROLES): it reads contact details, originals or accounts`,
      { field: 'totpRequired' },
    );
  }

  /** A new account with a one-time password (shown once; changed at first sign-in). */
  async createUser(
    input: { username: string; displayName?: string | null; role: string; totpRequired?: boolean },
    caller: Caller,
  ): Promise<{ user: User; password: string }> {
    if (!isRole(input.role)) throw new DomainError('invalid', `no role ${input.role}`, { field: 'role' });
    const totpRequired = input.totpRequired ?? this.mustUseTotp(input.role);
    if (!totpRequired && this.mustUseTotp(input.role)) throw this.totpRuleError(input.role);
    if (await this.users.findByUsername(input.username)) {
      throw new DomainError('conflict', `username ${input.username} is taken`, { field: 'username' });
    }
    const password = generatePassword();
    const user = await this.users.create({
      username: input.username,
      displayName: input.displayName ?? null,
      passwordHash: await hashPassword(password),
      role: input.role,
      mustChangePassword: true,
      totpRequired,
    });
    await this.audit.record(caller, {
      action: 'user_created',
      subjectType: 'user',
      subjectId: user.id,
      details: { role: user.role, totpRequired: user.totpRequired },
    });
    return { user, password };
  }

  /**
   * Changes a user's role, state or TOTP requirement. Disabling, a new role or a new TOTP requirement ends every
   * session and revokes every token of the user (re-enabling brings none back; a new role's power is not
   * inherited by credentials made under the old one). Refused when it would leave no admin who can sign in. From
   * the API, a role that gives the account contacts or originals it could not read is only asked for: a second
   * admin carries it out (`requests`; docs/access.md "Account changes by two admins"). The command line
   * (`athar users set-role`) is the operator's one-step path, as for resets.
   */
  async updateUser(
    id: string,
    patch: UserPatch,
    caller: Caller,
  ): Promise<{ before: User; after: User } | { request: AccountRequestView }> {
    if (patch.role !== undefined && !isRole(patch.role)) {
      throw new DomainError('invalid', `no role ${patch.role}`, { field: 'role' });
    }
    // Decided on the row as read in the transaction that writes it: a role changed meanwhile cannot slip past.
    const gated = (before: User) =>
      patch.role !== undefined &&
      caller.channel !== 'cli' &&
      roleChangeNeedsSecondAdmin(before.role, patch.role);
    // Counted again once committed: a session read meanwhile saw the old row (session-cache.ts).
    const outcome = await this.store
      .transaction((trx) => this.applyUpdate(trx, id, patch, gated))
      .finally(credentialsChanged);
    if ('ask' in outcome) {
      const others = Object.entries(patch).filter(([k, v]) => k !== 'role' && v !== undefined);
      if (others.length > 0) {
        // One request is one change: what else was sent would otherwise be done now, or wait unseen.
        throw new DomainError(
          'invalid',
          'change this role on its own: it waits for a second admin; send the other changes separately',
          { field: 'role' },
        );
      }
      if (!caller.actor)
        throw new DomainError('forbidden', 'a role change is asked for by a signed-in admin');
      const request = await this.requests.requestRoleChange(outcome.ask, patch.role as string, {
        ...caller,
        actor: caller.actor,
      });
      return { request };
    }
    await this.afterUpdate(outcome, caller);
    return { before: outcome.before, after: outcome.after };
  }

  /** The change itself, in the caller's transaction: one step, or a role change a second admin approved. */
  private async applyUpdate(db: Db, id: string, patch: UserPatch): Promise<UserChange>;
  private async applyUpdate(
    db: Db,
    id: string,
    patch: UserPatch,
    gated: (before: User) => boolean,
  ): Promise<UserChange | { ask: User }>;
  private async applyUpdate(
    db: Db,
    id: string,
    patch: UserPatch,
    gated?: (before: User) => boolean,
  ): Promise<UserChange | { ask: User }> {
    const users = new UserRepository(db);
    const before = await users.findById(id);
    if (!before) throw new DomainError('not_found', `no user ${id}`);
    // A role that needs a second admin is not written here: the caller asks for it.
    if (gated?.(before)) return { ask: before };
    const activeAdmin = before.role === 'admin' && !before.disabled;
    const staysActiveAdmin = (patch.role ?? before.role) === 'admin' && !(patch.disabled ?? before.disabled);
    if (activeAdmin && !staysActiveAdmin && (await users.countActiveAdmins(id)) === 0) {
      throw new DomainError('conflict', 'this is the last admin who can sign in; make another admin first', {
        field: patch.disabled ? 'disabled' : 'role',
      });
    }
    // A role that must use TOTP (ATHAR_TOTP_ROLES) brings the requirement, and it cannot be lifted.
    const role = patch.role ?? before.role;
    const effective = { ...patch };
    if (this.mustUseTotp(role)) {
      if (patch.totpRequired === false) throw this.totpRuleError(role);
      if (!before.totpRequired) effective.totpRequired = true;
    }
    if (!(await users.update(id, effective, patch.role !== undefined ? before.role : undefined))) {
      throw new DomainError(
        'conflict',
        `the role of ${before.username} changed meanwhile; look again and retry`,
        {
          field: 'role',
        },
      );
    }
    const after = (await users.findById(id)) as User;
    const ends =
      (after.disabled && !before.disabled) ||
      after.role !== before.role ||
      (after.totpRequired && !before.totpRequired);
    const ended = ends ? await new CredentialRepository(db).endCredentialsOf(id, this.iso()) : undefined;
    return { before, after, ended };
  }

  /** The audit row of a user change; `request` names the approved request it carried out. */
  private async afterUpdate(change: UserChange, caller: Caller, request?: string): Promise<void> {
    credentialsChanged();
    const { before, after, ended } = change;
    // What changed, without personal data: a display name is reported as changed, not quoted.
    const changes: Record<string, unknown> = {};
    if (before.role !== after.role) changes.role = { from: before.role, to: after.role };
    if (before.disabled !== after.disabled) changes.disabled = after.disabled;
    if (before.totpRequired !== after.totpRequired) changes.totpRequired = after.totpRequired;
    if (before.displayName !== after.displayName) changes.displayName = 'changed';
    await this.audit.record(caller, {
      action: 'user_updated',
      subjectType: 'user',
      subjectId: after.id,
      details: { ...changes, ...(ended ?? {}), ...(request ? { request } : {}) },
    });
  }

  /**
   * A new one-time password for a user who lost theirs: the username's back-off ends, every session ends and
   * every token is revoked, and with `resetTotp` the authenticator must be enrolled again. From the API, a reset
   * that would leave a reader of contacts or originals with no enrolled authenticator is only asked for: a second
   * admin carries it out (`requests`; docs/access.md "Account changes by two admins"). The command line is the
   * operator's one-step path: it needs the server's shell and data folder, which hold every key anyway.
   */
  async resetPassword(
    id: string,
    options: { resetTotp?: boolean },
    caller: Caller,
  ): Promise<{ password: string } | { request: AccountRequestView }> {
    const resetTotp = options.resetTotp === true;
    const user = await this.users.findById(id);
    if (!user) throw new DomainError('not_found', `no user ${id}`);
    if (caller.channel !== 'cli' && resetNeedsSecondAdmin({ ...user, resetTotp })) {
      if (!caller.actor)
        throw new DomainError('forbidden', 'a password reset is asked for by a signed-in admin');
      return {
        request: await this.requests.requestReset(user, resetTotp, { ...caller, actor: caller.actor }),
      };
    }
    const { password, hash } = await this.newPassword();
    const done = await this.store.transaction((trx) => this.applyReset(trx, id, hash, resetTotp));
    await this.afterReset(done.username);
    await this.audit.record(caller, {
      action: 'password_reset',
      subjectType: 'user',
      subjectId: id,
      details: { resetTotp, sessionsEnded: done.sessionsEnded, tokensRevoked: done.tokensRevoked },
    });
    return { password };
  }

  private async newPassword(): Promise<{ password: string; hash: string }> {
    const password = generatePassword();
    return { password, hash: await hashPassword(password) };
  }

  /** The reset itself, in the caller's transaction: the one place a reset is written (one step or approved). */
  private async applyReset(db: Db, id: string, hash: string, resetTotp: boolean) {
    const users = new UserRepository(db);
    const user = await users.findById(id);
    if (!user) throw new DomainError('not_found', `no user ${id}`);
    await users.setPassword(id, hash, true);
    if (resetTotp) await users.clearTotp(id);
    const ended = await new CredentialRepository(db).endCredentialsOf(id, this.iso());
    return { username: user.username, ...ended };
  }

  private async afterReset(username: string): Promise<void> {
    credentialsChanged();
    // The new password is no use while the username waits out a back-off someone else ran up.
    await this.backoff.unlock(username);
  }
}
