import { z } from 'zod';
import { minPasswordLength } from '../../../access/account-rules.js';
import type { Services } from '../../../services/index.js';
import type { App } from '../../app.js';
import { Problem } from '../../problems.js';
import { actorOf, sessionCaller } from './callers.js';

const tags = ['access'];

/** One's own account: password and TOTP enrolment (answered during enrolment too). */
export async function meRoutes(app: App, services: Services): Promise<void> {
  const { accounts } = services;

  app.post(
    '/api/me/password',
    {
      config: { access: 'signed_in', duringEnrolment: true, duringPasswordChange: true },
      schema: {
        summary: 'Change your own password; your other sessions end',
        tags,
        body: z.object({
          current: z.string().min(1).max(1024),
          next: z.string().min(minPasswordLength, `use at least ${minPasswordLength} characters`).max(1024),
        }),
      },
    },
    async (request, reply) => {
      const { retryAfter } = await accounts.changePassword(
        { current: request.body.current, next: request.body.next },
        sessionCaller(request),
      );
      if (retryAfter !== undefined) {
        reply.header('retry-after', String(retryAfter));
        throw new Problem('rate_limited');
      }
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/me/totp',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: {
        summary: 'Start TOTP enrolment: a new secret and its otpauth:// URI, active once confirmed',
        tags,
        response: { 200: z.object({ secret: z.string(), uri: z.string() }) },
      },
    },
    async (request) => {
      const actor = actorOf(request, true);
      return accounts.startTotp(actor.userId, actor.username);
    },
  );

  app.post(
    '/api/me/totp/confirm',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: {
        summary: 'Finish TOTP enrolment with a code from the app',
        tags,
        body: z.object({ code: z.string().min(1).max(20) }),
      },
    },
    async (request, reply) => {
      await accounts.confirmTotp(request.body.code, sessionCaller(request));
      return reply.status(204).send();
    },
  );
}
