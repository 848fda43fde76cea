import { z } from 'zod';
import type { AppContext } from '../../services/context.js';
import { ping } from '../../store/store.js';
import { version } from '../../version.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';

export async function healthRoutes(app: App, ctx: AppContext): Promise<void> {
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
        await ping(ctx.store);
      } catch {
        throw new Problem('unavailable', 'the database does not answer');
      }
      return { status: 'ok' as const, version, database: ctx.store.capabilities.dialect };
    },
  );
}
