import { z } from 'zod';
import { sourceKinds } from '../../domain/registry.js';
import type { Services } from '../../services/index.js';
import type { Source } from '../../store/repositories/sources.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { actorId } from './registry-support.js';

function present(s: Source) {
  return {
    id: s.id,
    name: s.name,
    kind: s.kind,
    description: s.description,
    reliabilityNotes: s.reliabilityNotes,
    createdAt: s.createdAt,
  };
}

/** Sources: who or what records came from, with reliability notes. */
export async function sourceRoutes(app: App, services: Services): Promise<void> {
  const { sources } = services;

  app.get(
    '/api/sources',
    { config: { access: 'sources:read' }, schema: { summary: 'Every source, by name', tags: ['sources'] } },
    async () => ({ items: (await sources.list()).map(present) }),
  );

  app.get(
    '/api/sources/:id',
    {
      config: { access: 'sources:read' },
      schema: {
        summary: 'One source',
        tags: ['sources'],
        params: z.object({ id: z.string().min(1).max(100) }),
      },
    },
    async (request) => {
      const source = await sources.get(request.params.id);
      if (!source) throw new Problem('not_found', `no source ${request.params.id}`);
      return present(source);
    },
  );

  app.post(
    '/api/sources',
    {
      config: { access: 'sources:write' },
      schema: {
        summary: 'Create a source (names are unique)',
        tags: ['sources'],
        body: z.object({
          name: z.string().trim().min(1).max(300),
          kind: z.enum(sourceKinds),
          description: z.string().max(4000).optional(),
          reliabilityNotes: z.string().max(4000).optional(),
        }),
      },
    },
    async (request, reply) => {
      const made = await sources.create(request.body, actorId(request));
      return reply.status(201).send(present(made));
    },
  );
}
