import type { FastifyRequest } from 'fastify';
import type { Actor } from '../access/actor.js';
import type { Caller } from '../access/caller.js';
import { type Access, allows } from '../access/policies.js';
import type { Services } from '../services/index.js';
import type { App } from './app.js';
import { Problem } from './problems.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every route athar registers must say (see registerAccess). */
    access?: Access;
    /** The route also answers a session limited to TOTP enrolment (sign-out, enrolment, password change). */
    duringEnrolment?: boolean;
    /**
     * The route also answers a session whose user must still change a one-time password (reading the session,
     * signing out, changing the password): nothing else does, whatever the role (docs/access.md).
     */
    duringPasswordChange?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated caller; null on public routes and for anonymous callers. */
    actor: Actor | null;
  }
}

export const sessionCookie = 'athar_session';
export const csrfHeader = 'x-csrf-token';

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
  /** Answers a session that must still change its one-time password. */
  duringPasswordChange: boolean;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authentication and authorisation for every route, from the one rule each route declares in `config.access`.
 * Routes registered while `declaring` is on must declare it, or the server refuses to start; they form the route
 * table that the route × role test walks. Checks run in onRequest, before a body is parsed or validated.
 */
export function registerAccess(app: App, services: Services): { routes: RouteEntry[]; seal(): void } {
  const routes: RouteEntry[] = [];
  let declaring = true;

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
      routes.push({
        method,
        url: route.url,
        access,
        duringPasswordChange: route.config?.duringPasswordChange === true,
      });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const actor = await services.authenticator.authenticate(
      request.headers.authorization,
      request.cookies[sessionCookie],
    );
    if (!actor) throw new Problem('unauthenticated');
    if (!allows(access, actor.role, actor.scopes)) {
      throw new Problem('forbidden', `your role (${actor.role}) may not do this`);
    }
    if (actor.enrolmentOnly && !request.routeOptions.config.duringEnrolment) {
      throw new Problem('enrolment_required');
    }
    if (actor.mustChangePassword && !request.routeOptions.config.duringPasswordChange) {
      throw new Problem('password_change_required');
    }
    if (actor.via === 'session' && !safeMethods.has(request.method)) {
      const sent = request.headers[csrfHeader];
      if (typeof sent !== 'string' || sent !== actor.csrfToken) throw new Problem('csrf_failed');
    }
    request.actor = actor;
  });

  return {
    routes,
    seal() {
      declaring = false;
    },
  };
}

/** The request's caller, as services take it: its actor (if any), its address, the HTTP channel. */
export function callerOf(request: FastifyRequest): Caller {
  return { actor: request.actor, ip: request.ip, channel: 'http' };
}

/** The signed-in caller; routes that act on behalf of someone require one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Problem('unauthenticated');
  return request.actor;
}
