import { z } from 'zod';
import { usernamePattern, usernameRule } from '../../../access/account-rules.js';
import { roles } from '../../../access/roles.js';
import type { Services } from '../../../services/index.js';
import { callerOf } from '../../access.js';
import type { App } from '../../app.js';
import {
  accountRequestView,
  presentToken,
  presentUser,
  tokenView,
  userView,
} from '../../presenters/accounts.js';
import { signedIn } from '../evidence.js';

const id = z.object({ id: z.string().min(1).max(100) });
const idAndToken = id.extend({ tokenId: z.string().min(1).max(100) });
const tags = ['access'];

/** User administration (admins): accounts, roles, disabling, password resets, requests; every change audited. */
export async function userRoutes(app: App, services: Services): Promise<void> {
  const { accounts } = services;

  app.get(
    '/api/users',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Every user account',
        tags,
        response: { 200: z.object({ items: z.array(userView) }) },
      },
    },
    async () => ({ items: (await accounts.listUsers()).map(presentUser) }),
  );

  app.post(
    '/api/users',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Create a user; answers a one-time password, shown once',
        tags,
        body: z.object({
          username: z.string().regex(usernamePattern, usernameRule),
          displayName: z.string().trim().min(1).max(200).optional(),
          role: z.enum(roles),
          totpRequired: z.boolean().optional(),
        }),
        response: { 201: z.object({ user: userView, password: z.string() }) },
      },
    },
    async (request, reply) => {
      const { user, password } = await accounts.createUser(request.body, callerOf(request));
      return reply.status(201).send({ user: presentUser(user), password });
    },
  );

  app.patch(
    '/api/users/:id',
    {
      config: { access: 'users:manage' },
      schema: {
        summary:
          "Change a user's role, display name, TOTP requirement or disable them; 202 when a role that newly reads contacts or originals must be approved by a second admin",
        tags,
        params: id,
        body: z.object({
          role: z.enum(roles).optional(),
          disabled: z.boolean().optional(),
          totpRequired: z.boolean().optional(),
          displayName: z.string().trim().min(1).max(200).nullable().optional(),
        }),
        response: {
          200: z.object({ user: userView }),
          202: z.object({ request: accountRequestView }),
        },
      },
    },
    async (request, reply) => {
      const done = await accounts.updateUser(request.params.id, request.body, callerOf(request));
      // A role that newly reads contacts or originals waits for a second admin.
      if ('request' in done) return reply.status(202).send(done);
      return { user: presentUser(done.after) };
    },
  );

  app.post(
    '/api/users/:id/password-reset',
    {
      config: { access: 'users:manage' },
      schema: {
        summary:
          'Give a user a new one-time password (sessions end; optionally TOTP is set up again); 202 when a second admin must approve it',
        tags,
        params: id,
        body: z.object({ resetTotp: z.boolean().optional() }).optional(),
        response: {
          200: z.object({ password: z.string() }),
          202: z.object({ request: accountRequestView }),
        },
      },
    },
    async (request, reply) => {
      const resetTotp = request.body?.resetTotp === true;
      const result = await accounts.resetPassword(request.params.id, { resetTotp }, callerOf(request));
      // A reset that would leave a reader of contacts or originals without an authenticator waits for a second admin.
      return 'request' in result ? reply.status(202).send(result) : result;
    },
  );

  app.get(
    '/api/account-requests',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Password resets and role changes awaiting a second admin',
        tags,
        response: { 200: z.object({ items: z.array(accountRequestView) }) },
      },
    },
    async () => ({ items: await accounts.requests.awaiting() }),
  );

  app.post(
    '/api/account-requests/:id/approve',
    {
      config: { access: 'users:manage' },
      schema: {
        summary:
          "Approve another admin's request: it happens now; a reset answers the one-time password, shown once",
        tags,
        params: id,
        response: { 200: z.object({ password: z.string().optional(), request: accountRequestView }) },
      },
    },
    async (request) => accounts.requests.approve(request.params.id, signedIn(request)),
  );

  app.post(
    '/api/account-requests/:id/refuse',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: "Refuse another admin's request: the account is left as it is",
        tags,
        params: id,
        response: { 200: z.object({ request: accountRequestView }) },
      },
    },
    async (request) => ({ request: await accounts.requests.refuse(request.params.id, signedIn(request)) }),
  );

  app.delete(
    '/api/account-requests/:id',
    {
      config: { access: 'users:manage' },
      schema: { summary: 'Cancel a request (a reset or a role change) you asked for', tags, params: id },
    },
    async (request, reply) => {
      await accounts.requests.cancel(request.params.id, signedIn(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/:id/tokens',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: "A user's API tokens (never the tokens themselves); audited",
        tags,
        params: id,
        response: { 200: z.object({ items: z.array(tokenView) }) },
      },
    },
    async (request) => ({
      items: (await accounts.tokensOfUser(request.params.id, callerOf(request))).map(presentToken),
    }),
  );

  app.delete(
    '/api/users/:id/tokens',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Revoke every live API token of a user; each revocation audited',
        tags,
        params: id,
        response: { 200: z.object({ revoked: z.number().int() }) },
      },
    },
    async (request) => ({
      revoked: await accounts.revokeTokensOfUser(request.params.id, undefined, callerOf(request)),
    }),
  );

  app.delete(
    '/api/users/:id/tokens/:tokenId',
    {
      config: { access: 'users:manage' },
      schema: { summary: 'Revoke one API token of a user; audited', tags, params: idAndToken },
    },
    async (request, reply) => {
      await accounts.revokeTokensOfUser(request.params.id, request.params.tokenId, callerOf(request));
      return reply.status(204).send();
    },
  );
}
