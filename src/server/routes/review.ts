import { z } from 'zod';
import { visibilityOf } from '../../access/caller.js';
import type { Services } from '../../services/index.js';
import {
  decodePairCursor,
  encodePairCursor,
  type PairForReview,
} from '../../services/review/review-queue.js';
import type { CandidatePair } from '../../store/repositories/candidate-pairs.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { presentReviewRecord } from '../presenters/review-record.js';
import { Problem } from '../problems.js';
import { signedIn } from './evidence.js';

const tags = ['review'];
const idParams = z.object({ id: z.string().min(1).max(100) });

function presentPair(p: PairForReview, forensic: boolean) {
  return {
    id: p.pair.id,
    a: presentReviewRecord(p.a, forensic),
    b: presentReviewRecord(p.b, forensic),
    probability: p.pair.probability,
    matchWeight: p.pair.matchWeight,
    modelVersion: p.pair.modelVersion,
    status: p.pair.status,
    createdAt: p.pair.createdAt,
    explanation: p.explanation,
    agreement: p.agreement,
  };
}

/** The candidate-pair queue: list, the next pair with its waterfall, decide, undo. */
export async function reviewRoutes(app: App, services: Services): Promise<void> {
  const queue = services.review;

  app.get(
    '/api/review/pairs',
    {
      config: { access: 'review:read' },
      schema: {
        summary: 'Candidate pairs by status, most probable first',
        tags,
        querystring: z.object({
          status: z.enum(['open', 'decided', 'unsure']).default('open'),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          cursor: z.string().min(1).max(300).optional(),
        }),
      },
    },
    async (request) => {
      const { status, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodePairCursor(cursor);
      if (cursor !== undefined && !after)
        throw new Problem('bad_request', 'cursor: not a cursor this API gave');
      const forensic = visibilityOf(callerOf(request)).forensic;
      const page = await queue.list(status, limit, after, callerOf(request));
      const record = (id: string) => {
        const row = page.records.get(id);
        return row ? presentReviewRecord(row, forensic) : null;
      };
      return {
        items: page.pairs.map((p: CandidatePair) => ({
          id: p.id,
          a: record(p.recordA),
          b: record(p.recordB),
          probability: p.probability,
          matchWeight: p.matchWeight,
          modelVersion: p.modelVersion,
          status: p.status,
          createdAt: p.createdAt,
        })),
        ...(page.next ? { nextCursor: encodePairCursor(page.next) } : {}),
      };
    },
  );

  app.get(
    '/api/review/next',
    {
      config: { access: 'review:read' },
      schema: {
        summary: 'The most probable open pair, with both records, the waterfall and field agreement',
        tags,
      },
    },
    async (request) => {
      const next = await queue.next(callerOf(request));
      return { pair: next ? presentPair(next, visibilityOf(callerOf(request)).forensic) : null };
    },
  );

  app.get(
    '/api/review/pairs/:id',
    {
      config: { access: 'review:read' },
      schema: { summary: 'One candidate pair, as /api/review/next shows it', tags, params: idParams },
    },
    async (request) => {
      const pair = await queue.get(request.params.id, callerOf(request));
      if (!pair) throw new Problem('not_found', `no candidate pair ${request.params.id}`);
      return presentPair(pair, visibilityOf(callerOf(request)).forensic);
    },
  );

  app.post(
    '/api/review/pairs/:id/decision',
    {
      config: { access: 'review:decide' },
      schema: {
        summary:
          'Decide a pair: match (links the records to one person), non_match (never proposed again) or unsure',
        tags,
        params: idParams,
        body: z.object({
          verdict: z.enum(['match', 'non_match', 'unsure']),
          note: z.string().trim().max(2000).nullish(),
        }),
      },
    },
    async (request) => {
      const viewer = signedIn(request);
      return queue.decide(
        request.params.id,
        request.body.verdict,
        viewer.actor.userId,
        request.body.note || null,
        callerOf(request),
      );
    },
  );

  app.post(
    '/api/review/decisions/:id/undo',
    {
      config: { access: 'review:decide' },
      schema: {
        summary: 'Undo a decision in force: takes back its links and puts the pair back in the queue',
        tags,
        params: idParams,
        body: z.object({ reason: z.string().trim().max(2000).nullish() }).nullish(),
      },
    },
    async (request) => {
      const viewer = signedIn(request);
      return queue.undo(request.params.id, viewer.actor.userId, request.body?.reason || null);
    },
  );
}
