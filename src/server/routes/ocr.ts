import { z } from 'zod';
import type { Services } from '../../services/index.js';
import type { OcrProposal } from '../../store/repositories/ocr.js';
import type { App } from '../app.js';
import { presentBodyLabels } from '../presenters/evidence.js';
import { signedIn } from './evidence.js';

const tags = ['evidence'];
const idParams = z.object({ id: z.string().min(1).max(100) });

/** A proposal as the API shows it: every field is what the machine read, with who decided it, if anyone. */
function presentProposal(p: OcrProposal) {
  return {
    id: p.id,
    evidenceId: p.evidenceId,
    part: p.part,
    value: p.value,
    confidence: p.confidence,
    readFrom: p.readFrom,
    box: p.box,
    engine: p.engine,
    createdAt: p.createdAt,
    status: p.status,
    correctedValue: p.correctedValue,
    decidedBy: p.decidedBy,
    decidedAt: p.decidedAt,
    bodyLabelId: p.bodyLabelId,
  };
}

/**
 * OCR proposals (docs/ocr.md): what the card reader proposed for an item, the proposals waiting for a reviewer
 * (least confident first), and a reviewer's decisions on one card's proposals.
 */
export async function ocrRoutes(app: App, services: Services): Promise<void> {
  const { evidence, ocr } = services;

  app.get(
    '/api/evidence/:id/ocr',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary:
          'The card numbers OCR proposed for an item, each with its confidence, box, engine and decision',
        tags,
        params: idParams,
      },
    },
    async (request) => {
      await evidence.require(request.params.id);
      return { items: (await ocr.proposals(request.params.id)).map(presentProposal) };
    },
  );

  app.get(
    '/api/ocr/proposals',
    {
      config: { access: 'evidence:annotate' },
      schema: {
        summary: 'Card numbers OCR proposed that no reviewer decided yet, least confident first',
        tags,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
      },
    },
    async (request) => ({ items: (await ocr.waiting(request.query.limit)).map(presentProposal) }),
  );

  app.post(
    '/api/evidence/:id/ocr/decisions',
    {
      config: { access: 'evidence:annotate' },
      schema: {
        summary:
          "Confirm, correct or reject a card's proposed numbers: confirmed and corrected ones become the body's labels (read from the card)",
        tags,
        params: idParams,
        body: z.object({
          collection: z.string().trim().min(1).max(200),
          decisions: z
            .array(
              z.object({
                proposal: z.string().min(1).max(100),
                action: z.enum(['confirm', 'correct', 'reject']),
                value: z.string().trim().min(1).max(200).optional(),
              }),
            )
            .min(1)
            .max(20),
        }),
      },
    },
    async (request, reply) => {
      const viewer = signedIn(request);
      await evidence.require(request.params.id);
      const done = await ocr.decide(request.params.id, {
        collection: request.body.collection,
        decisions: request.body.decisions.map((d) => ({
          proposal: d.proposal,
          action: d.action,
          ...(d.value === undefined ? {} : { value: d.value }),
        })),
        actor: viewer.actor.userId,
      });
      return reply.status(200).send({
        proposals: done.proposals.map(presentProposal),
        bodyLabels: done.labels ? presentBodyLabels(done.labels) : null,
      });
    },
  );
}
