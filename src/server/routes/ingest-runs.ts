import { z } from 'zod';
import { visibilityOf } from '../../access/caller.js';
import type { Services } from '../../services/index.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { presentIngestRun } from '../presenters/evidence.js';
import { Problem } from '../problems.js';

const tags = ['evidence'];

/** Ingest runs and their progress, for a page that polls while a run goes on. */
export async function ingestRunRoutes(app: App, services: Services): Promise<void> {
  app.get(
    '/api/ingest-runs',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary: 'Ingest runs, newest first, with progress',
        tags,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const visibility = visibilityOf(caller);
      return {
        items: (await services.ingestRuns.list(request.query.limit, caller)).map((r) =>
          presentIngestRun(r.run, r.found, visibility),
        ),
      };
    },
  );

  app.get(
    '/api/ingest-runs/:id',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary: 'One ingest run: status, done, total and counts',
        tags,
        params: z.object({ id: z.string().min(1).max(100) }),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const found = await services.ingestRuns.get(request.params.id, caller);
      if (!found) throw new Problem('not_found', `no ingest run ${request.params.id}`);
      return presentIngestRun(found.run, found.found, visibilityOf(caller));
    },
  );
}
