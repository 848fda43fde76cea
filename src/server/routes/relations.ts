import { z } from 'zod';
import { certainties, relationTypes } from '../../domain/registry.js';
import type { Services } from '../../services/index.js';
import type { App } from '../app.js';
import { presentRelation } from '../presenters/registry.js';
import { actorId } from './registry-support.js';

const id = z.string().min(1).max(100);

/** Typed relations between persons; retracted, never deleted. Known relatives count against a same-person link. */
export async function relationRoutes(app: App, services: Services): Promise<void> {
  const { registry } = services;
  app.post(
    '/api/relations',
    {
      config: { access: 'events:write' },
      schema: {
        summary:
          'Relate two persons (same_person, parent_child: a is the parent, sibling, spouse, alleged_perpetrator: a of b)',
        tags: ['relations'],
        body: z.object({
          personA: id,
          personB: id,
          type: z.enum(relationTypes),
          certainty: z.enum(certainties),
          note: z.string().max(4000).optional(),
        }),
      },
    },
    async (request, reply) => {
      const made = await registry.addRelation(request.body, actorId(request));
      return reply.status(201).send(presentRelation(made));
    },
  );
  app.post(
    '/api/relations/:id/retract',
    {
      config: { access: 'events:write' },
      schema: {
        summary: 'Retract a relation, with a reason (it stays, marked retracted)',
        tags: ['relations'],
        params: z.object({ id }),
        body: z.object({ reason: z.string().trim().min(1).max(4000) }),
      },
    },
    async (request) => {
      const made = await registry.retractRelation(request.params.id, actorId(request), request.body.reason);
      return presentRelation(made);
    },
  );
}
