import type { Actor } from '../../access/actor.js';
import { permissionsOf } from '../../access/policies.js';
import { secretDigest } from '../../access/secrets.js';
import { sessionIdleMs, sessionMaxMs } from '../../access/sessions.js';
import {
  CredentialRepository,
  credentialsChangedElsewhere,
  credentialsGeneration,
  onCredentialsChanged,
} from '../../store/repositories/credentials.js';
import type { AppContext } from '../context.js';
import { SessionCache } from './session-cache.js';

/** A session's or token's last use is written at most this often (a busy page would write on every request). */
const touchEveryMs = 60 * 1000;

/**
 * Who a request comes from: a bearer token, or a session cookie. Lookups of sessions are remembered for a few
 * seconds (SessionCache); every write that could change an answer counts a generation, in this process and, through
 * `changedElsewhere`, in the others of a `serve --workers` group.
 */
export class Authenticator {
  private readonly credentials: CredentialRepository;
  private readonly sessions = new SessionCache();

  constructor(private readonly ctx: AppContext) {
    this.credentials = new CredentialRepository(ctx.store.db);
  }

  async authenticate(authorization: string | undefined, cookie: string | undefined): Promise<Actor | null> {
    const now = this.ctx.clock();
    const nowText = new Date(now).toISOString();
    if (authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match) return null;
      const token = await this.credentials.tokenUser(secretDigest(match[1] as string), nowText);
      if (!token) return null;
      if (!token.lastUsedAt || now - Date.parse(token.lastUsedAt) > touchEveryMs) {
        await this.credentials.touchToken(token.tokenId, nowText);
      }
      const scopes = new Set(token.scopes.filter((s) => permissionsOf(token.role).has(s)));
      return {
        userId: token.userId,
        username: token.username,
        role: token.role,
        via: 'token',
        credentialId: token.tokenId,
        scopes,
      };
    }
    if (!cookie) return null;
    const sessionId = secretDigest(cookie);
    let session = this.sessions.get(sessionId, now, nowText);
    if (!session) {
      const readIn = credentialsGeneration();
      session = await this.credentials.sessionUser(
        sessionId,
        nowText,
        new Date(now - sessionMaxMs).toISOString(),
      );
      if (!session) return null;
      this.sessions.remember(sessionId, session, readIn, now);
    }
    if (now - Date.parse(session.lastSeenAt) > touchEveryMs) {
      // The idle window slides, but never past the session's absolute end.
      const expiresAt = new Date(
        Math.min(now + sessionIdleMs, Date.parse(session.createdAt) + sessionMaxMs),
      ).toISOString();
      await this.credentials.touchSession(session.sessionId, nowText, expiresAt);
      // The remembered lookup is one object: slide it too, so the next requests do not touch again.
      session.lastSeenAt = nowText;
      session.expiresAt = expiresAt;
    }
    return {
      userId: session.userId,
      username: session.username,
      role: session.role,
      via: 'session',
      credentialId: session.sessionId,
      csrfToken: session.csrfToken,
      ...(session.enrolmentOnly ? { enrolmentOnly: true } : {}),
      ...(session.mustChangePassword ? { mustChangePassword: true } : {}),
    };
  }

  /** Calls the listener after every credential write in this process (to tell the other processes). */
  onChange(listener: () => void): () => void {
    return onCredentialsChanged(listener);
  }

  /** Another process wrote credentials: forget what was remembered. */
  changedElsewhere(): void {
    credentialsChangedElsewhere();
  }
}
