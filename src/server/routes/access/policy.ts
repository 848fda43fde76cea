import { z } from 'zod';
import { permissions, policy, policySentences } from '../../../access/policies.js';
import type { App } from '../../app.js';

const tags = ['access'];

/** The roles and what each may do, for every signed-in user (the web interface shows it). */
export async function policyRoutes(app: App): Promise<void> {
  app.get(
    '/api/policy',
    {
      config: { access: 'signed_in' },
      schema: {
        summary: 'The roles and what each may do, as data and as sentences',
        tags,
        response: {
          200: z.object({
            sentences: z.array(z.string()),
            permissions: z.record(z.string(), z.string()),
            roles: z.record(z.string(), z.array(z.string())),
          }),
        },
      },
    },
    async () => ({
      sentences: policySentences(),
      permissions,
      roles: Object.fromEntries(Object.entries(policy).map(([role, list]) => [role, [...list]])),
    }),
  );
}
