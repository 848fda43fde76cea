import type { Caller } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import type { CandidateStatus, Verdict } from '../../domain/review.js';
import {
  type Agreement,
  fieldAgreement,
  isExplanation,
  type ReviewExplanation,
  reviewExplanation,
} from '../../linkage/agreement.js';
import { type Explanation, explainPair } from '../../linkage/explain.js';
import { RecordFeatures } from '../../linkage/features.js';
import { CompiledModel } from '../../linkage/model.js';
import { Scorer } from '../../linkage/scorer.js';
import { TermFrequencies } from '../../linkage/term-frequencies.js';
import type { CandidatePair } from '../../store/repositories/candidate-pairs.js';
import { CandidatePairRepository } from '../../store/repositories/candidate-pairs.js';
import { DecisionRepository } from '../../store/repositories/decisions.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { type RecordWithContext, ReviewRecordRepository } from '../../store/repositories/review-records.js';
import type { Store } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import { readModelFile } from '../batch/linkage-model-file.js';
import type { AppContext } from '../context.js';
import { hiddenFrom, seesWithdrawn } from '../registry/consent-filter.js';
import { recordFields } from './registry-matcher.js';
import { ReviewService } from './review.js';

export interface PairForReview {
  pair: CandidatePair;
  a: RecordWithContext;
  b: RecordWithContext;
  explanation: ReviewExplanation | null;
  agreement: Record<string, Agreement>;
}

export interface PairCursor {
  priority: number;
  id: string;
}

export function encodePairCursor(c: PairCursor): string {
  return Buffer.from(JSON.stringify([c.priority, c.id])).toString('base64url');
}

export function decodePairCursor(text: string): PairCursor | undefined {
  try {
    const [priority, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof priority === 'number' && typeof id === 'string') return { priority, id };
  } catch {}
  return undefined;
}

/**
 * The review screen's side of the queue: pairs with both records, the explanation waterfall and each field's
 * agreement. Decisions go through ReviewService, which keeps rejected pairs out for good.
 */
export class ReviewQueue {
  readonly service: ReviewService;
  private model: ReturnType<typeof readModelFile> | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {
    this.service = new ReviewService(ctx.store, { clock: () => ctx.clock() });
  }

  private get store(): Store {
    return this.ctx.store;
  }

  /**
   * A page of the queue as the caller may see it, audited (the pairs' ids, never names): a pair with a record of a
   * family report whose consent to internal use is withdrawn is not there for anyone who does not see such records
   * in /api/records either (docs/access.md "The review queue").
   */
  async list(
    status: CandidateStatus,
    limit: number,
    after: PairCursor | undefined,
    caller: Caller,
  ): Promise<{ pairs: CandidatePair[]; records: Map<string, RecordWithContext>; next?: PairCursor }> {
    const repo = new CandidatePairRepository(this.store.db, this.store.capabilities);
    const found = await repo.list(status, limit + 1, after, { withoutWithdrawn: !seesWithdrawn(caller) });
    const pairs = found.slice(0, limit);
    const records = await new ReviewRecordRepository(this.store.db).getMany(
      pairs.flatMap((p) => [p.recordA, p.recordB]),
    );
    await this.audit.record(caller, {
      action: 'read',
      subjectType: 'candidate_pairs',
      details: { status, pairs: pairs.map((p) => p.id), ...(after ? { cursor: true } : {}) },
    });
    const last = pairs[pairs.length - 1];
    return {
      pairs,
      records,
      ...(found.length > limit && last ? { next: { priority: last.priority, id: last.id } } : {}),
    };
  }

  /** The most probable open pair the caller may see, ready to decide (audited); null when the queue is empty. */
  async next(caller: Caller): Promise<PairForReview | null> {
    const [pair] = await this.service.open(1, undefined, { withoutWithdrawn: !seesWithdrawn(caller) });
    return pair ? this.read(pair, caller) : null;
  }

  /** One pair (audited); null when there is none, or the caller may not see one of its records (consent). */
  async get(id: string, caller: Caller): Promise<PairForReview | null> {
    const pair = await this.visible(id, caller);
    return pair ? this.read(pair, caller) : null;
  }

  private async visible(id: string, caller: Caller): Promise<CandidatePair | null> {
    const pair = await this.service.pair(id);
    if (!pair) return null;
    const hidden = await hiddenFrom(this.store.db, caller, [
      { id: pair.recordA, kind: 'family_report' },
      { id: pair.recordB, kind: 'family_report' },
    ]);
    return hidden.size > 0 ? null : pair;
  }

  private async read(pair: CandidatePair, caller: Caller): Promise<PairForReview> {
    const shown = await this.forReview(pair);
    await this.audit.record(caller, { action: 'read', subjectType: 'candidate_pair', subjectId: pair.id });
    return shown;
  }

  private async forReview(pair: CandidatePair): Promise<PairForReview> {
    const records = new ReviewRecordRepository(this.store.db);
    const rows = await records.getMany([pair.recordA, pair.recordB]);
    const a = rows.get(pair.recordA);
    const b = rows.get(pair.recordB);
    if (!a || !b) throw new Error(`candidate pair ${pair.id} names a record that is not stored`);
    const explanation = isExplanation(pair.explanation)
      ? pair.explanation
      : this.explain(a, b, pair.modelVersion, await records.count());
    return {
      pair,
      a,
      b,
      explanation: explanation ? reviewExplanation(explanation) : null,
      agreement: explanation ? fieldAgreement(explanation) : {},
    };
  }

  /**
   * The waterfall of a pair stored without one, from the two records alone (term frequencies from these two, so
   * only the field weights are exact); null when the model in use is not the one that scored the pair.
   */
  private explain(
    a: RecordWithContext,
    b: RecordWithContext,
    modelVersion: string,
    records: number,
  ): Explanation | null {
    this.model ??= readModelFile();
    const model = this.model;
    if (model.version !== modelVersion) return null;
    const features = new RecordFeatures(16);
    const ia = features.add(a.id, recordFields(a));
    const ib = features.add(b.id, recordFields(b));
    const scorer = new Scorer(features, new CompiledModel(model), TermFrequencies.of(features), 8);
    return explainPair(scorer, ia, ib, Math.max(records, 2));
  }

  /**
   * The waterfall of any two records under the model in use: what a person page previews before linking, merging
   * or splitting. Null when either record is not stored.
   */
  async explainRecords(
    recordA: string,
    recordB: string,
  ): Promise<{ explanation: ReviewExplanation | null; agreement: Record<string, Agreement> } | null> {
    const records = new ReviewRecordRepository(this.store.db);
    const rows = await records.getMany([recordA, recordB]);
    const a = rows.get(recordA);
    const b = rows.get(recordB);
    if (!a || !b) return null;
    this.model ??= readModelFile();
    const explanation = this.explain(a, b, this.model.version, await records.count());
    return {
      explanation: explanation ? reviewExplanation(explanation) : null,
      agreement: explanation ? fieldAgreement(explanation) : {},
    };
  }

  /** Decides a queued pair; answers the decision and, for a match, the person both records now belong to. */
  async decide(
    pairId: string,
    verdict: Verdict,
    reviewerId: string,
    note?: string | null,
    caller?: Caller,
  ): Promise<{ decisionId: string; personId?: string }> {
    // A pair the caller may not see (consent withdrawn) is not there to decide either.
    if (caller && !(await this.visible(pairId, caller))) {
      throw new DomainError('not_found', `no candidate pair ${pairId}`);
    }
    const decision = await this.service.decide({ pairId, decision: verdict, reviewerId, note: note ?? null });
    if (verdict !== 'match') return { decisionId: decision.id };
    const link = await new RecordLinkRepository(this.store.db).active(decision.recordA);
    return link ? { decisionId: decision.id, personId: link.personId } : { decisionId: decision.id };
  }

  async undo(
    decisionId: string,
    reviewerId: string,
    reason?: string | null,
  ): Promise<{ decisionId: string }> {
    const undone = await this.service.undo(decisionId, reviewerId, reason);
    return { decisionId: undone.id };
  }

  async decision(id: string) {
    return new DecisionRepository(this.store.db).get(id);
  }
}
