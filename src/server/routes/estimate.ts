import { z } from 'zod';
import { estimateStrata } from '../../services/estimate/registry-estimate.js';
import type { Services } from '../../services/index.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';

/** Multiple systems estimation on the registry (docs/estimation.md): aggregates only, never a name. */
export async function estimateRoutes(app: App, services: Services): Promise<void> {
  app.get(
    '/api/estimate',
    {
      config: { access: 'stats:read' },
      schema: {
        summary:
          "How many are missing: the registry's sources as lists, its persons as the linkage; per stratum the observed, the estimate, its interval, the model and why, and warnings",
        tags: ['stats'],
        querystring: z.object({
          by: z.enum(estimateStrata).optional(),
          lists: z.string().max(2000).optional().describe('source names or ids, comma-separated (3 to 6)'),
          method: z.enum(['loglinear', 'lcmcr', 'both']).default('loglinear'),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const lists = q.lists
        ? q.lists
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
      return services.estimate.fromRegistry(
        {
          ...(q.by ? { by: q.by } : {}),
          ...(lists ? { lists } : {}),
          estimate: { method: q.method },
        },
        callerOf(request),
      );
    },
  );
}
