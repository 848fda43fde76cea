import { z } from 'zod';
import { datePrecisions, eventTypes } from '../../domain/registry.js';
import type { Services } from '../../services/index.js';
import type { App } from '../app.js';
import { presentEvent } from '../presenters/registry.js';
import { actorId } from './registry-support.js';

/** Events of a person or a record: type, dates at their precision, place or branch. */
export async function eventRoutes(app: App, services: Services): Promise<void> {
  const { registry } = services;
  app.post(
    '/api/events',
    {
      config: { access: 'events:write' },
      schema: {
        summary: 'Add an event to a person or a record (a person’s events are in GET /api/persons/:id)',
        tags: ['events'],
        body: z.object({
          personId: z.string().min(1).max(100).optional(),
          recordId: z.string().min(1).max(100).optional(),
          type: z.enum(eventTypes),
          dateStart: z.string().max(40).optional(),
          dateEnd: z.string().max(40).optional(),
          datePrecision: z.enum(datePrecisions).optional(),
          place: z.string().max(500).optional(),
          branch: z.string().max(200).optional(),
          governorate: z.string().max(200).optional(),
          description: z.string().max(4000).optional(),
        }),
      },
    },
    async (request, reply) => {
      const event = await registry.addEvent(request.body, actorId(request));
      return reply.status(201).send(presentEvent(event));
    },
  );
}
