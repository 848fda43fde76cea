import type { Permission } from '../../access/policies.js';
import { newId, nowIso } from '../../ids.js';
import type { Db } from '../store.js';

let generation = 0;

/**
 * Counts a change to who a session is (its user's role, state, password, the session itself), so that memories of
 * session lookups (src/server/session-cache.ts) are dropped. Call before a write and again after it commits.
 */
export function credentialsChanged(): void {
  generation++;
  for (const listener of listeners) listener();
}

const listeners = new Set<() => void>();

/** Hears every credential change made in this process (`serve --workers` tells the other processes). */
export function onCredentialsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Counts a change that another process made (and told this one of): drops remembered lookups, tells no one. */
export function credentialsChangedElsewhere(): void {
  generation++;
}

/** How many credential changes this process has seen. */
export function credentialsGeneration(): number {
  return generation;
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  username: string;
  role: string;
  csrfToken: string;
  expiresAt: string;
  lastSeenAt: string;
  /** When the session began (sign-in): its absolute lifetime counts from here. */
  createdAt: string;
  /** The user must still enrol TOTP: only the enrolment routes answer this session. */
  enrolmentOnly: boolean;
  /** The user holds a one-time password: only changing it and signing out answer this session. */
  mustChangePassword: boolean;
}

/** An API token as its owner sees it: never the token or its hash. */
export interface ApiToken {
  id: string;
  name: string;
  scopes: Permission[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface TokenUser {
  tokenId: string;
  userId: string;
  username: string;
  role: string;
  scopes: Permission[];
  lastUsedAt: string | null;
}

/** Looks up who a session cookie or an API token belongs to; disabled users and expired credentials are nobody. */
export class CredentialRepository {
  constructor(private readonly db: Db) {}

  /** The session's user, if the session has not expired at `now` and began after `beganAfter` (when given). */
  async sessionUser(
    sessionId: string,
    now = nowIso(),
    beganAfter?: string,
  ): Promise<SessionUser | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id as sessionId',
        'users.id as userId',
        'users.username',
        'users.role',
        'sessions.csrf_token as csrfToken',
        'sessions.expires_at as expiresAt',
        'sessions.last_seen_at as lastSeenAt',
        'sessions.created_at as createdAt',
        'sessions.enrolment_only',
        'users.must_change_password',
      ])
      .where('sessions.id', '=', sessionId)
      .where('sessions.expires_at', '>', now)
      .$if(beganAfter !== undefined, (q) => q.where('sessions.created_at', '>', beganAfter as string))
      .where('users.disabled', '=', 0)
      .executeTakeFirst();
    if (!row) return undefined;
    const { enrolment_only, must_change_password, ...rest } = row;
    return { ...rest, enrolmentOnly: enrolment_only === 1, mustChangePassword: must_change_password === 1 };
  }

  async createSession(input: {
    id: string;
    userId: string;
    csrfToken: string;
    expiresAt: string;
    enrolmentOnly?: boolean;
    now?: string;
  }): Promise<void> {
    const now = input.now ?? nowIso();
    await this.db
      .insertInto('sessions')
      .values({
        id: input.id,
        user_id: input.userId,
        csrf_token: input.csrfToken,
        created_at: now,
        expires_at: input.expiresAt,
        last_seen_at: now,
        enrolment_only: input.enrolmentOnly ? 1 : 0,
      })
      .execute();
  }

  /** Sliding expiry, written at most once a minute per session so reads stay reads. */
  async touchSession(sessionId: string, now: string, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: expiresAt })
      .where('id', '=', sessionId)
      .execute();
  }

  async deleteSession(sessionId: string): Promise<void> {
    credentialsChanged();
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    credentialsChanged();
  }

  /** Ends every session of a user, or every other one when `keep` names the session that stays; how many ended. */
  async deleteSessionsOf(userId: string, keep?: string): Promise<number> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keep) q = q.where('id', '<>', keep);
    credentialsChanged();
    const result = await q.executeTakeFirst();
    credentialsChanged();
    return Number(result.numDeletedRows);
  }

  /** Revokes every live token of a user (their ids, for the audit row). */
  async revokeTokensOf(userId: string, now: string): Promise<string[]> {
    const live = await this.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    if (live.length === 0) return [];
    await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    return live.map((r) => r.id);
  }

  /**
   * Ends every credential of a user — sessions (but `keep`) and tokens — in the caller's transaction: what a
   * password change, a reset, disabling, a role change or a new TOTP requirement does (docs/access.md).
   */
  async endCredentialsOf(
    userId: string,
    now: string,
    keep?: string,
  ): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
    const sessionsEnded = await this.deleteSessionsOf(userId, keep);
    const tokensRevoked = (await this.revokeTokensOf(userId, now)).length;
    return { sessionsEnded, tokensRevoked };
  }

  /** TOTP is set up: the user's sessions reach every route their role allows. */
  async endEnrolment(userId: string): Promise<void> {
    credentialsChanged();
    await this.db.updateTable('sessions').set({ enrolment_only: 0 }).where('user_id', '=', userId).execute();
    credentialsChanged();
  }

  async createToken(input: {
    userId: string;
    name: string;
    tokenHash: string;
    scopes: readonly Permission[];
    expiresAt: string | null;
    now: string;
  }): Promise<ApiToken> {
    const id = newId();
    await this.db
      .insertInto('api_tokens')
      .values({
        id,
        user_id: input.userId,
        name: input.name,
        token_hash: input.tokenHash,
        scopes: JSON.stringify(input.scopes),
        created_at: input.now,
        expires_at: input.expiresAt,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    return {
      id,
      name: input.name,
      scopes: [...input.scopes],
      createdAt: input.now,
      expiresAt: input.expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    };
  }

  async tokensOf(userId: string): Promise<ApiToken[]> {
    const rows = await this.db
      .selectFrom('api_tokens')
      .select(['id', 'name', 'scopes', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scopes: JSON.parse(r.scopes) as Permission[],
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      lastUsedAt: r.last_used_at,
      revokedAt: r.revoked_at,
    }));
  }

  /** When a token was last used, written at most once a minute per token (like a session's last_seen_at). */
  async touchToken(id: string, now: string): Promise<void> {
    await this.db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  /** Revokes one of the user's live tokens; false when they own no such live token. */
  async revokeToken(id: string, userId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async tokenUser(tokenHash: string, now = nowIso()): Promise<TokenUser | undefined> {
    const row = await this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        'api_tokens.id as tokenId',
        'users.id as userId',
        'users.username',
        'users.role',
        'api_tokens.scopes',
        'api_tokens.last_used_at as lastUsedAt',
      ])
      .where('api_tokens.token_hash', '=', tokenHash)
      .where('api_tokens.revoked_at', 'is', null)
      // Every token has an expiry since migration 0014; one without is refused rather than taken as endless.
      .where('api_tokens.expires_at', '>', now)
      .where('users.disabled', '=', 0)
      // A one-time password's holder may not use a script's token either (its tokens were revoked at the reset).
      .where('users.must_change_password', '=', 0)
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...row, scopes: JSON.parse(row.scopes) as Permission[] };
  }
}
