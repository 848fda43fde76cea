import type { Actor } from '../access/actor.js';
import { type Access, allows, permissionsOf } from '../access/policies.js';
import { secretDigest } from '../access/secrets.js';
import { auditWriter } from '../services/audit/audit-writer.js';
import type { AppContext } from '../services/context.js';
import { CredentialRepository, credentialsGeneration } from '../store/repositories/credentials.js';
import type { App } from './app.js';
import { Problem } from './problems.js';
import { SessionCache } from './session-cache.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every route athar registers must say (see registerAccess). */
    access?: Access;
    /** The route also answers a session limited to TOTP enrolment (sign-out, enrolment, password change). */
    duringEnrolment?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated caller; null on public routes and for anonymous callers. */
    actor: Actor | null;
  }
}

export const sessionCookie = 'athar_session';
export const csrfHeader = 'x-csrf-token';
/** Idle sessions end after this long; any request slides the window. */
export const sessionIdleMs = 8 * 60 * 60 * 1000;
/** However busy, a session ends this long after sign-in (a stolen cookie does not live for ever). */
export const sessionMaxMs = 12 * 60 * 60 * 1000;
const touchEveryMs = 60 * 1000;

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authentication and authorisation for every route, from the one rule each route declares in `config.access`.
 * Routes registered while `declaring` is on must declare it, or the server refuses to start; they form the route
 * table that the route × role test walks. Checks run in onRequest, before a body is parsed or validated.
 */
export function registerAccess(app: App, ctx: AppContext): { routes: RouteEntry[]; seal(): void } {
  const routes: RouteEntry[] = [];
  let declaring = true;
  const credentials = new CredentialRepository(ctx.store.db);
  const sessions = new SessionCache();

  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    if (!declaring) return;
    const access = route.config?.access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!access) {
      throw new Error(`route ${methods.join(',')} ${route.url} declares no config.access`);
    }
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const actor = await authenticate(request.headers.authorization, request.cookies[sessionCookie]);
    if (!actor) throw new Problem('unauthenticated');
    if (!allows(access, actor.role, actor.scopes)) {
      throw new Problem('forbidden', `your role (${actor.role}) may not do this`);
    }
    if (actor.enrolmentOnly && !request.routeOptions.config.duringEnrolment) {
      throw new Problem('enrolment_required');
    }
    if (actor.via === 'session' && !safeMethods.has(request.method)) {
      const sent = request.headers[csrfHeader];
      if (typeof sent !== 'string' || sent !== actor.csrfToken) throw new Problem('csrf_failed');
    }
    request.actor = actor;
  });

  async function authenticate(
    authorization: string | undefined,
    cookie: string | undefined,
  ): Promise<Actor | null> {
    const now = ctx.clock();
    const nowText = new Date(now).toISOString();
    if (authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match) return null;
      const token = await credentials.tokenUser(secretDigest(match[1] as string), nowText);
      if (!token) return null;
      if (!token.lastUsedAt || now - Date.parse(token.lastUsedAt) > touchEveryMs) {
        await credentials.touchToken(token.tokenId, nowText);
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
    let session = sessions.get(sessionId, now, nowText);
    if (!session) {
      const readIn = credentialsGeneration();
      session = await credentials.sessionUser(sessionId, nowText, new Date(now - sessionMaxMs).toISOString());
      if (!session) return null;
      sessions.remember(sessionId, session, readIn, now);
    }
    if (now - Date.parse(session.lastSeenAt) > touchEveryMs) {
      // The idle window slides, but never past the session's absolute end.
      const expiresAt = new Date(
        Math.min(now + sessionIdleMs, Date.parse(session.createdAt) + sessionMaxMs),
      ).toISOString();
      await credentials.touchSession(session.sessionId, nowText, expiresAt);
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
    };
  }

  return {
    routes,
    seal() {
      declaring = false;
    },
  };
}

/** What one audited act says: what was done to what, and anything that explains it (never personal data). */
export interface AuditedAct {
  action: string;
  subjectType?: string;
  subjectId?: string;
  details?: Record<string, unknown>;
}

/**
 * Writes an audit row for the request's caller (or anonymous) with its address. Rows go through the store's
 * group-commit writer: the caller waits until its row is committed, and concurrent requests share one commit.
 */
export function audit(
  ctx: AppContext,
  request: { actor: Actor | null; ip: string },
  act: AuditedAct,
): Promise<void> {
  return auditWriter(ctx.store).append(
    {
      actorId: request.actor?.userId ?? null,
      actorRole: request.actor?.role ?? null,
      action: act.action,
      subjectType: act.subjectType ?? null,
      subjectId: act.subjectId ?? null,
      details: act.details ?? null,
      ip: request.ip,
    },
    new Date(ctx.clock()).toISOString(),
  );
}
