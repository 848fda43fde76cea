import { minPasswordLength, signInLimits, totpByDefault, windowStart } from '../../access/account-rules.js';
import { generatePassword, hashPassword, verifyPassword } from '../../access/passwords.js';
import { type Permission, permissionsOf } from '../../access/policies.js';
import { isRole } from '../../access/roles.js';
import { newSecret, secretDigest } from '../../access/secrets.js';
import { newTotpSecret, totpStep, totpUri } from '../../access/totp.js';
import {
  type ApiToken,
  CredentialRepository,
  credentialsChanged,
} from '../../store/repositories/credentials.js';
import { RateLimitRepository } from '../../store/repositories/rate-limits.js';
import { type User, type UserPatch, UserRepository } from '../../store/repositories/users.js';
import type { Store } from '../../store/store.js';

/** Why an account operation was refused; `field` names the input at fault when there is one. */
export class AccountError extends Error {
  constructor(
    readonly code: 'invalid' | 'not_found' | 'conflict',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

/** Why a sign-in failed, for the audit log; the caller learns only the refusal. */
export type SignInFailure =
  | 'address_limit'
  | 'username_limit'
  | 'locked'
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
      refusal: 'rate_limited' | 'locked' | 'unauthenticated' | 'totp_required';
      failure: SignInFailure;
      userId?: string;
      /** Seconds until a throttled or locked caller may try again. */
      retryAfter?: number;
    };

/** A hash to verify against when the username is unknown, so the answer takes as long as for a known one. */
let dummyHash: Promise<string> | undefined;

/** Sign-in, passwords, TOTP enrolment, API tokens and user administration: the accounts of issue 7. */
export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    /** How long a new session lives without use. */
    private readonly sessionIdleMs: number,
  ) {}

  private get users() {
    return new UserRepository(this.store.db);
  }

  private get credentials() {
    return new CredentialRepository(this.store.db);
  }

  private iso(ms = this.clock()): string {
    return new Date(ms).toISOString();
  }

  async signIn(input: {
    username: string;
    password: string;
    totp?: string;
    address: string;
  }): Promise<SignInOutcome> {
    const now = this.clock();
    const throttled = await this.throttle(input.address, input.username, now);
    if (throttled) return throttled;

    const row = await this.users.signInRow({ username: input.username });
    if (!row) {
      dummyHash ??= hashPassword(newSecret());
      await verifyPassword(await dummyHash, input.password);
      return { ok: false, refusal: 'unauthenticated', failure: 'unknown_user' };
    }
    const userId = row.id;
    if (row.locked_until && row.locked_until > this.iso(now)) {
      return {
        ok: false,
        refusal: 'locked',
        failure: 'locked',
        userId,
        retryAfter: Math.ceil((Date.parse(row.locked_until) - now) / 1000),
      };
    }
    if (!(await verifyPassword(row.password_hash, input.password))) {
      return this.fail(userId, 'unauthenticated', 'password', now);
    }
    // Checked after the password so that a disabled account answers like a wrong password, in the same time.
    if (row.disabled === 1) return { ok: false, refusal: 'unauthenticated', failure: 'disabled', userId };
    if (row.totp_secret) {
      // Asking for the code is the normal second step, not a failure.
      if (!input.totp) return { ok: false, refusal: 'totp_required', failure: 'totp_missing', userId };
      const step = totpStep(row.totp_secret, input.totp, now);
      if (step === null) return this.fail(userId, 'totp_required', 'totp_wrong', now);
      if (!(await this.users.acceptTotpStep(userId, step))) {
        return this.fail(userId, 'totp_required', 'totp_replayed', now);
      }
    }
    if (row.failed_logins > 0 || row.locked_until) await this.users.clearFailures(userId);

    const enrolmentOnly = row.totp_required === 1 && !row.totp_secret;
    const token = newSecret();
    const sessionId = secretDigest(token);
    const csrfToken = newSecret(18);
    await this.credentials.createSession({
      id: sessionId,
      userId,
      csrfToken,
      expiresAt: this.iso(now + this.sessionIdleMs),
      enrolmentOnly,
      now: this.iso(now),
    });
    const user = (await this.users.findById(userId)) as User;
    return { ok: true, user, token, sessionId, csrfToken, enrolmentOnly };
  }

  /** Counts the attempt against its address and its username; answers a refusal once either is over its limit. */
  private async throttle(address: string, username: string, now: number): Promise<SignInOutcome | null> {
    const limits = new RateLimitRepository(this.store.db);
    // Keys are digests: the table should not hold typed usernames (sometimes a password typed in the wrong box).
    const checks = [
      ['address_limit', `sign-in:address:${secretDigest(address)}`, signInLimits.perAddress],
      ['username_limit', `sign-in:username:${secretDigest(username)}`, signInLimits.perUsername],
    ] as const;
    for (const [failure, key, limit] of checks) {
      const start = windowStart(now, limit.windowMs);
      if ((await limits.hit(key, limit.windowMs, now)) > limit.max) {
        const retryAfter = Math.ceil((Date.parse(start) + limit.windowMs - now) / 1000);
        return { ok: false, refusal: 'rate_limited', failure, retryAfter };
      }
    }
    // Now and then, forget windows that ended long ago.
    if (Math.random() < 0.01) await limits.prune(this.iso(now - 24 * 60 * 60 * 1000));
    return null;
  }

  private async fail(
    userId: string,
    refusal: 'unauthenticated' | 'totp_required',
    failure: SignInFailure,
    now: number,
  ): Promise<SignInOutcome> {
    const locked = await this.users.recordFailure(
      userId,
      signInLimits.lockAfter,
      this.iso(now + signInLimits.lockMs),
    );
    if (locked) {
      return { ok: false, refusal: 'locked', failure, userId, retryAfter: signInLimits.lockMs / 1000 };
    }
    return { ok: false, refusal, failure, userId };
  }

  async signOut(sessionId: string): Promise<void> {
    await this.credentials.deleteSession(sessionId);
  }

  /** A person changes their own password; their other sessions end (someone else may hold one). */
  async changePassword(input: {
    userId: string;
    sessionId: string;
    current: string;
    next: string;
  }): Promise<void> {
    if (input.next.length < minPasswordLength) {
      throw new AccountError('invalid', `use at least ${minPasswordLength} characters`, 'next');
    }
    const row = await this.users.signInRow({ id: input.userId });
    if (!row || !(await verifyPassword(row.password_hash, input.current))) {
      throw new AccountError('invalid', 'the current password is not right', 'current');
    }
    if (input.next === input.current) {
      throw new AccountError('invalid', 'choose a password different from the current one', 'next');
    }
    const hash = await hashPassword(input.next);
    await this.store.transaction(async (trx) => {
      await new UserRepository(trx).setPassword(input.userId, hash, false);
      await new CredentialRepository(trx).deleteSessionsOf(input.userId, input.sessionId);
    });
    credentialsChanged();
  }

  /** Offers a new TOTP secret; it becomes active only when a code from it is confirmed. */
  async startTotp(userId: string, username: string): Promise<{ secret: string; uri: string }> {
    const row = await this.users.signInRow({ id: userId });
    if (!row) throw new AccountError('not_found', 'no such user');
    if (row.totp_secret) {
      throw new AccountError('conflict', 'TOTP is already set up; an admin can reset it (password reset)');
    }
    const secret = newTotpSecret();
    await this.users.setPendingTotp(userId, secret);
    return { secret, uri: totpUri(secret, username) };
  }

  /** Activates the pending secret with a code from the app; the user's sessions are no longer limited. */
  async confirmTotp(userId: string, code: string): Promise<void> {
    const row = await this.users.signInRow({ id: userId });
    if (!row?.totp_pending_secret) {
      throw new AccountError('conflict', 'start enrolment first (POST /api/me/totp)');
    }
    const secret = row.totp_pending_secret;
    const step = totpStep(secret, code, this.clock());
    if (step === null) throw new AccountError('invalid', 'the code does not match; check the app', 'code');
    await this.store.transaction(async (trx) => {
      await new UserRepository(trx).activateTotp(userId, secret, step);
      await new CredentialRepository(trx).endEnrolment(userId);
    });
    credentialsChanged();
  }

  async listTokens(userId: string): Promise<ApiToken[]> {
    return this.credentials.tokensOf(userId);
  }

  /** A token for scripts, shown once; its scopes must be permissions the owner's role has. */
  async createToken(input: {
    userId: string;
    role: string;
    name: string;
    scopes: readonly string[];
    expiresInDays?: number;
  }): Promise<ApiToken & { token: string }> {
    const allowed = permissionsOf(input.role);
    input.scopes.forEach((scope, i) => {
      if (!allowed.has(scope as Permission)) {
        throw new AccountError(
          'invalid',
          `scope ${scope} is not among your permissions (${[...allowed].join(', ')})`,
          `scopes.${i}`,
        );
      }
    });
    const now = this.clock();
    const token = `athar_${newSecret()}`;
    const created = await this.credentials.createToken({
      userId: input.userId,
      name: input.name,
      tokenHash: secretDigest(token),
      scopes: [...new Set(input.scopes as Permission[])],
      expiresAt:
        input.expiresInDays === undefined ? null : this.iso(now + input.expiresInDays * 24 * 60 * 60 * 1000),
      now: this.iso(now),
    });
    return { ...created, token };
  }

  async revokeToken(id: string, userId: string): Promise<void> {
    if (!(await this.credentials.revokeToken(id, userId, this.iso()))) {
      throw new AccountError('not_found', `no live token ${id} of yours`);
    }
  }

  async listUsers(): Promise<User[]> {
    return this.users.list();
  }

  /** A new account with a one-time password (shown once; changed at first sign-in). */
  async createUser(input: {
    username: string;
    displayName?: string | null;
    role: string;
    totpRequired?: boolean;
  }): Promise<{ user: User; password: string }> {
    if (!isRole(input.role)) throw new AccountError('invalid', `no role ${input.role}`, 'role');
    if (await this.users.findByUsername(input.username)) {
      throw new AccountError('conflict', `username ${input.username} is taken`, 'username');
    }
    const password = generatePassword();
    const user = await this.users.create({
      username: input.username,
      displayName: input.displayName ?? null,
      passwordHash: await hashPassword(password),
      role: input.role,
      mustChangePassword: true,
      totpRequired: input.totpRequired ?? totpByDefault.includes(input.role),
    });
    return { user, password };
  }

  /**
   * Changes a user's role, state or TOTP requirement. Disabling ends their sessions (their tokens stop working
   * with the account). Refused when it would leave no admin who can sign in.
   */
  async updateUser(id: string, patch: UserPatch): Promise<{ before: User; after: User }> {
    if (patch.role !== undefined && !isRole(patch.role)) {
      throw new AccountError('invalid', `no role ${patch.role}`, 'role');
    }
    // Counted again once committed: a session read meanwhile saw the old row (src/server/session-cache.ts).
    return this.store
      .transaction(async (trx) => {
        const users = new UserRepository(trx);
        const before = await users.findById(id);
        if (!before) throw new AccountError('not_found', `no user ${id}`);
        const activeAdmin = before.role === 'admin' && !before.disabled;
        const staysActiveAdmin =
          (patch.role ?? before.role) === 'admin' && !(patch.disabled ?? before.disabled);
        if (activeAdmin && !staysActiveAdmin && (await users.countActiveAdmins(id)) === 0) {
          throw new AccountError(
            'conflict',
            'this is the last admin who can sign in; make another admin first',
            patch.disabled ? 'disabled' : 'role',
          );
        }
        await users.update(id, patch);
        if (patch.disabled) await new CredentialRepository(trx).deleteSessionsOf(id);
        return { before, after: (await users.findById(id)) as User };
      })
      .finally(credentialsChanged);
  }

  /**
   * A new one-time password for a user who lost theirs: failures and lockout are cleared, sessions end, and
   * with `resetTotp` the authenticator must be enrolled again.
   */
  async resetPassword(id: string, options: { resetTotp?: boolean } = {}): Promise<{ password: string }> {
    const password = generatePassword();
    const hash = await hashPassword(password);
    await this.store.transaction(async (trx) => {
      const users = new UserRepository(trx);
      if (!(await users.findById(id))) throw new AccountError('not_found', `no user ${id}`);
      await users.setPassword(id, hash, true);
      await users.clearFailures(id);
      if (options.resetTotp) await users.clearTotp(id);
      await new CredentialRepository(trx).deleteSessionsOf(id);
    });
    credentialsChanged();
    return { password };
  }
}
