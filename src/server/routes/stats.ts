import type { Services } from '../../services/index.js';
import type { App } from '../app.js';

/** Counts and charts of the archive (numbers only). */
export async function statsRoutes(app: App, services: Services): Promise<void> {
  app.get(
    '/api/stats',
    {
      config: { access: 'stats:read' },
      schema: {
        summary:
          'Totals; records by governorate, arrest year and branch; confirmations per month; daily activity',
        tags: ['stats'],
      },
    },
    async () => services.stats.overview(),
  );
}
