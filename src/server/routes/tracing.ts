import { z } from 'zod';
import type { Services } from '../../services/index.js';
import type { TracingRun } from '../../store/repositories/tracing.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';

const presentRun = (r: TracingRun) => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  stage: r.stage,
  done: r.done,
  total: r.total,
  records: r.records,
  links: r.links,
  reviewPairs: r.review_pairs,
  modelVersion: r.model_version,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  failure: r.failure,
});

/** The tracing loop: its state (counts only), and a family report's candidates (liaisons). */
export async function tracingRoutes(app: App, services: Services): Promise<void> {
  const { tracing } = services;

  app.get(
    '/api/tracing',
    {
      config: { access: 'stats:read' },
      schema: {
        summary:
          'The tracing loop: records waiting to be linked and matched, the run under way and the latest runs',
        tags: ['tracing'],
      },
    },
    async () => {
      const status = await tracing.status();
      return {
        pending: status.pending,
        running: status.running ? presentRun(status.running) : null,
        recent: status.recent.map(presentRun),
        indexedRecords: status.indexedRecords,
      };
    },
  );

  app.get(
    '/api/reports/:id/candidates',
    {
      config: { access: 'reports:read' },
      schema: {
        summary:
          "What the archive holds that may be a report's missing person: records (with their person), probability, explanation, evidence involved (audited; the family never sees these)",
        tags: ['reports'],
        params: z.object({ id: z.string().min(1).max(64) }),
      },
    },
    async (request) => ({ items: await tracing.candidates(request.params.id, callerOf(request)) }),
  );
}
