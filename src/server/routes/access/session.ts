import { z } from 'zod';
import { secretDigest } from '../../../access/secrets.js';
import type { Services } from '../../../services/index.js';
import { callerOf, sessionCookie } from '../../access.js';
import type { App } from '../../app.js';
import { presentSession, sessionView } from '../../presenters/accounts.js';
import { Problem } from '../../problems.js';
import { actorOf, sessionCaller } from './callers.js';

const tags = ['access'];

/** Sign-in and sessions: the cookie is HttpOnly and SameSite=Strict; every sign-in and its failures are audited. */
export async function sessionRoutes(app: App, services: Services): Promise<void> {
  const { accounts } = services;

  app.post(
    '/api/session',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Sign in with username, password and (when set up) a TOTP code; sets the session cookie',
        tags,
        body: z.object({
          username: z.string().min(1).max(200),
          password: z.string().min(1).max(1024),
          totp: z.string().max(20).optional(),
        }),
        response: { 200: sessionView },
      },
    },
    async (request, reply) => {
      const { username, password, totp } = request.body;
      const outcome = await accounts.signIn(
        { username, password, ...(totp ? { totp } : {}) },
        callerOf(request),
      );
      if (!outcome.ok) {
        // Held back: the same 429 and body for a known and an unknown username (the back-off keys on the typed name).
        if (outcome.retryAfter !== undefined) {
          reply.header('retry-after', String(outcome.retryAfter));
          throw new Problem(outcome.refusal, undefined, { retryAfter: outcome.retryAfter });
        }
        throw new Problem(outcome.refusal);
      }
      const { user } = outcome;
      // A sign-in over an old session replaces it rather than leaving it alive beside the new one.
      const previous = request.cookies[sessionCookie];
      if (previous) await accounts.endSession(secretDigest(previous));
      reply.setCookie(sessionCookie, outcome.token, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        // request.protocol honours X-Forwarded-Proto only when ATHAR_TRUST_PROXY is set.
        secure: request.protocol === 'https',
      });
      return presentSession(user, outcome.csrfToken, outcome.enrolmentOnly);
    },
  );

  app.get(
    '/api/session',
    {
      config: { access: 'signed_in', duringEnrolment: true, duringPasswordChange: true },
      schema: {
        summary: 'Who is signed in, with the CSRF token and permissions',
        tags,
        response: { 200: sessionView },
      },
    },
    async (request) => {
      const actor = actorOf(request, true);
      const user = await accounts.user(actor.userId);
      if (!user) throw new Problem('unauthenticated');
      return presentSession(user, actor.csrfToken ?? '', actor.enrolmentOnly === true);
    },
  );

  app.delete(
    '/api/session',
    {
      config: { access: 'signed_in', duringEnrolment: true, duringPasswordChange: true },
      schema: { summary: 'Sign out: ends this session and clears its cookie', tags },
    },
    async (request, reply) => {
      await accounts.signOut(sessionCaller(request));
      reply.clearCookie(sessionCookie, { path: '/' });
      return reply.status(204).send();
    },
  );
}
