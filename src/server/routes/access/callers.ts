import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../access/actor.js';
import type { SignedIn } from '../../../access/caller.js';
import { Problem } from '../../problems.js';

/** The caller, who passed the route's rule; some acts need a signed-in person rather than a script's token. */
export function actorOf(request: FastifyRequest, sessionOnly = false): Actor {
  const actor = request.actor;
  if (!actor) throw new Problem('unauthenticated');
  if (sessionOnly && actor.via !== 'session') {
    throw new Problem('forbidden', 'only a signed-in session may do this, not an API token');
  }
  return actor;
}

/** The signed-in caller (session or token), as services take it. */
export function signedInCaller(request: FastifyRequest): SignedIn {
  return { actor: actorOf(request), ip: request.ip, channel: 'http' };
}

/** The caller through a session only: acts on one's own credentials are refused to tokens. */
export function sessionCaller(request: FastifyRequest): SignedIn {
  return { actor: actorOf(request, true), ip: request.ip, channel: 'http' };
}
