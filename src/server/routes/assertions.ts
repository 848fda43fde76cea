import { z } from 'zod';
import type { Services } from '../../services/index.js';
import type { App } from '../app.js';
import { presentAssertion } from '../presenters/registry.js';
import { actorId, claimFields } from './registry-support.js';

/** Claims about a person or a record (append-only); a person's case status is derived from them. */
export async function assertionRoutes(app: App, services: Services): Promise<void> {
  const { registry } = services;
  app.post(
    '/api/assertions',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Add a claim about a person or a record',
        tags: ['records'],
        body: z
          .object({
            personId: z.string().min(1).max(100).optional(),
            recordId: z.string().min(1).max(100).optional(),
            ...claimFields,
          })
          .refine((b) => (b.personId ? 1 : 0) + (b.recordId ? 1 : 0) === 1, {
            message: 'name exactly one of personId and recordId',
            path: ['personId'],
          }),
      },
    },
    async (request, reply) => {
      const made = await registry.addAssertion(request.body, actorId(request));
      return reply.status(201).send(presentAssertion(made));
    },
  );
}
