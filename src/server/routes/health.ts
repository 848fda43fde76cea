import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { version } from '../../version.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';

export async function healthRoutes(app: App, services: Services): Promise<void> {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Liveness and database reachability',
        tags: ['system'],
        response: {
          200: z.object({
            status: z.literal('ok'),
            version: z.string(),
            database: z.enum(['sqlite', 'postgres']),
          }),
        },
      },
    },
    async () => {
      try {
        await services.health.ping();
      } catch {
        throw new Problem('unavailable', 'the database does not answer');
      }
      return { status: 'ok' as const, version, database: services.health.dialect as 'sqlite' | 'postgres' };
    },
  );
}
