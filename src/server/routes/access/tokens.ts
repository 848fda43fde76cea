import { z } from 'zod';
import { tokenLifetime } from '../../../access/sessions.js';
import type { Services } from '../../../services/index.js';
import type { App } from '../../app.js';
import { presentToken, tokenView } from '../../presenters/accounts.js';
import { actorOf, sessionCaller, signedInCaller } from './callers.js';

const id = z.object({ id: z.string().min(1).max(100) });
const tags = ['access'];

/** API tokens for scripts: created by a signed-in session (never by another token), shown once. */
export async function tokenRoutes(app: App, services: Services): Promise<void> {
  const { accounts } = services;

  app.get(
    '/api/tokens',
    {
      config: { access: 'signed_in' },
      schema: {
        summary: 'Your API tokens (never the tokens themselves)',
        tags,
        response: { 200: z.object({ items: z.array(tokenView) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return { items: (await accounts.listTokens(actor.userId)).map(presentToken) };
    },
  );

  app.post(
    '/api/tokens',
    {
      config: { access: 'signed_in' },
      schema: {
        summary: `Create an API token for scripts, shown once; it ends after expiresInDays (default ${tokenLifetime.defaultDays}, at most ${tokenLifetime.maxDays})`,
        tags,
        body: z.object({
          name: z.string().trim().min(1).max(100),
          scopes: z.array(z.string().max(100)).min(1).max(100),
          expiresInDays: z.number().int().min(1).max(tokenLifetime.maxDays).optional(),
        }),
        response: { 201: tokenView.extend({ token: z.string() }) },
      },
    },
    async (request, reply) => {
      const created = await accounts.createToken(
        {
          name: request.body.name,
          scopes: request.body.scopes,
          ...(request.body.expiresInDays !== undefined ? { expiresInDays: request.body.expiresInDays } : {}),
        },
        sessionCaller(request),
      );
      return reply.status(201).send({ ...presentToken(created), token: created.token });
    },
  );

  app.delete(
    '/api/tokens/:id',
    {
      config: { access: 'signed_in' },
      schema: { summary: 'Revoke one of your API tokens', tags, params: id },
    },
    async (request, reply) => {
      await accounts.revokeToken(request.params.id, signedInCaller(request));
      return reply.status(204).send();
    },
  );
}
