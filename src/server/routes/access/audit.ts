import { z } from 'zod';
import type { Services } from '../../../services/index.js';
import { callerOf } from '../../access.js';
import type { App } from '../../app.js';
import { auditView } from '../../presenters/accounts.js';

const isoTime = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
const tags = ['access'];

/** The audit log, for those who may read it; reading it is itself audited. */
export async function auditRoutes(app: App, services: Services): Promise<void> {
  app.get(
    '/api/audit',
    {
      config: { access: 'audit:read' },
      schema: {
        summary: 'The audit log, newest first, with filters and a cursor; reading it is itself audited',
        tags,
        querystring: z.object({
          actor: z.string().max(100).optional(),
          action: z.string().max(100).optional(),
          subjectType: z.string().max(100).optional(),
          subjectId: z.string().max(200).optional(),
          since: z.string().regex(isoTime, 'use an ISO date or time').optional(),
          until: z.string().regex(isoTime, 'use an ISO date or time').optional(),
          cursor: z
            .string()
            .regex(/^\d{1,15}$/, 'use the nextCursor of the previous page')
            .optional(),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
        response: { 200: z.object({ items: z.array(auditView), nextCursor: z.string().optional() }) },
      },
    },
    async (request) => {
      const q = request.query;
      const filter = {
        ...(q.actor ? { actorId: q.actor } : {}),
        ...(q.action ? { action: q.action } : {}),
        ...(q.subjectType ? { subjectType: q.subjectType } : {}),
        ...(q.subjectId ? { subjectId: q.subjectId } : {}),
        ...(q.since ? { since: q.since } : {}),
        ...(q.until ? { until: q.until } : {}),
      };
      const page = await services.audit.query(
        filter,
        { ...(q.cursor ? { beforeId: Number(q.cursor) } : {}), limit: q.limit },
        callerOf(request),
      );
      return { ...page, items: page.items.map((r) => ({ ...r, id: String(r.id) })) };
    },
  );
}
