import { z } from 'zod';
import type { SignedIn } from '../../access/caller.js';
import { identificationStatuses } from '../../domain/review.js';
import type { Services } from '../../services/index.js';
import type { Identification, IdentificationStep } from '../../store/repositories/identifications.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { signedIn } from './evidence.js';

const tags = ['identifications'];
const idParams = z.object({ id: z.string().min(1).max(100) });
const noteBody = z.object({ note: z.string().trim().max(2000).nullish() }).nullish();

export function presentIdentification(i: Identification) {
  return {
    id: i.id,
    evidenceId: i.evidenceId,
    personId: i.personId,
    status: i.status,
    basis: i.basis,
    proposedBy: i.proposedBy,
    proposedAt: i.proposedAt,
    confirmations: [
      ...(i.firstConfirmedBy ? [{ by: i.firstConfirmedBy, at: i.firstConfirmedAt }] : []),
      ...(i.secondConfirmedBy ? [{ by: i.secondConfirmedBy, at: i.secondConfirmedAt }] : []),
    ],
    informedBy: i.informedBy,
    informedAt: i.informedAt,
  };
}

function presentStep(s: IdentificationStep) {
  return { id: s.id, step: s.step, actor: s.actor, at: s.at, note: s.note };
}

/** Identifications: propose; two different reviewers confirm; a liaison marks the family informed; or reject. */
export async function identificationRoutes(app: App, services: Services): Promise<void> {
  const service = services.identifications;

  app.get(
    '/api/identifications',
    {
      config: { access: 'identifications:read' },
      schema: {
        summary: 'Identifications, newest first, by status, person or evidence item',
        tags,
        querystring: z.object({
          status: z.enum(identificationStatuses).optional(),
          person: z.string().min(1).max(100).optional(),
          evidence: z.string().min(1).max(100).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          cursor: z.string().min(1).max(100).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await service.list({
        status: q.status,
        personId: q.person,
        evidenceId: q.evidence,
        before: q.cursor,
        limit: q.limit,
      });
      return {
        items: page.items.map(presentIdentification),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },
  );

  app.get(
    '/api/identifications/:id',
    {
      config: { access: 'identifications:read' },
      schema: { summary: 'One identification with every step taken on it', tags, params: idParams },
    },
    async (request) => {
      const found = await service.get(request.params.id);
      if (!found) throw new Problem('not_found', `no identification ${request.params.id}`);
      return { ...presentIdentification(found.identification), steps: found.steps.map(presentStep) };
    },
  );

  app.post(
    '/api/identifications',
    {
      config: { access: 'identifications:propose' },
      schema: {
        summary: 'Propose that an evidence item depicts a person',
        tags,
        body: z.object({
          evidenceId: z.string().min(1).max(100),
          personId: z.string().min(1).max(100),
          basis: z.string().trim().min(3).max(4000),
        }),
      },
    },
    async (request, reply) => {
      const actor = signedIn(request);
      const made = await service.propose({ ...request.body, actor });
      return reply.status(201).send(presentIdentification(made));
    },
  );

  const step = (
    url: string,
    access: 'identifications:confirm' | 'identifications:inform',
    summary: string,
    run: (id: string, actor: SignedIn, note: string | null) => Promise<Identification>,
  ) =>
    app.post(
      url,
      { config: { access }, schema: { summary, tags, params: idParams, body: noteBody } },
      async (request) => {
        const actor = signedIn(request);
        return presentIdentification(await run(request.params.id, actor, request.body?.note || null));
      },
    );

  step(
    '/api/identifications/:id/confirm',
    'identifications:confirm',
    'Confirm as one of two different reviewers (neither the proposer); the second confirms it',
    (id, actor, note) => service.confirm(id, actor, note),
  );
  step(
    '/api/identifications/:id/family-informed',
    'identifications:inform',
    'Mark that a liaison told the family, in person (only once confirmed)',
    (id, actor, note) => service.familyInformed(id, actor, note),
  );
  step(
    '/api/identifications/:id/reject',
    'identifications:confirm',
    'Reject a proposed or confirmed identification',
    (id, actor, note) => service.reject(id, actor, note),
  );
}
