/** What the registry's route files share: the acting user, and what a claim says. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assertionKinds } from '../../domain/case-status.js';
import { Problem } from '../problems.js';

/** The acting user's id (routes that write require a signed-in actor). */
export function actorId(request: FastifyRequest): string {
  if (!request.actor) throw new Problem('unauthenticated');
  return request.actor.userId;
}

/** What a claim says, shared by `POST /api/assertions` and `POST /api/records/:id/assertions`. */
export const claimFields = {
  kind: z.enum(assertionKinds),
  statement: z.string().max(4000).optional(),
  assertedAt: z
    .string()
    .regex(/^\d{4}(-\d{2}(-\d{2}(T[\d:.]+Z)?)?)?$/)
    .optional(),
  sourceId: z.string().min(1).optional(),
};
