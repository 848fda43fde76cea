import type { Permission } from '../../access/policies.js';
import { nowIso } from '../../ids.js';
import type { Db } from '../store.js';

export interface SessionUser {
  sessionId: string;
  userId: string;
  username: string;
  role: string;
  csrfToken: string;
  expiresAt: string;
  lastSeenAt: string;
}

export interface TokenUser {
  tokenId: string;
  userId: string;
  username: string;
  role: string;
  scopes: Permission[];
}

/** Looks up who a session cookie or an API token belongs to; disabled users and expired credentials are nobody. */
export class CredentialRepository {
  constructor(private readonly db: Db) {}

  async sessionUser(sessionId: string, now = nowIso()): Promise<SessionUser | undefined> {
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
      ])
      .where('sessions.id', '=', sessionId)
      .where('sessions.expires_at', '>', now)
      .where('users.disabled', '=', 0)
      .executeTakeFirst();
    return row;
  }

  async createSession(input: {
    id: string;
    userId: string;
    csrfToken: string;
    expiresAt: string;
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
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  async deleteSessionsOf(userId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
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
      ])
      .where('api_tokens.token_hash', '=', tokenHash)
      .where('api_tokens.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('api_tokens.expires_at', 'is', null), eb('api_tokens.expires_at', '>', now)]))
      .where('users.disabled', '=', 0)
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...row, scopes: JSON.parse(row.scopes) as Permission[] };
  }
}
