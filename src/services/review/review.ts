import { DomainError } from '../../domain/errors.js';
import type { Verdict } from '../../domain/review.js';
import { nextTurn } from '../../event-loop.js';
import { nowIso } from '../../ids.js';
import {
  type CandidatePair,
  CandidatePairRepository,
  type NewCandidatePair,
  orderedPair,
} from '../../store/repositories/candidate-pairs.js';
import { type Decision, DecisionRepository } from '../../store/repositories/decisions.js';
import { LookupRepository } from '../../store/repositories/lookups.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { slices } from '../../store/slices.js';
import type { Db, Store } from '../../store/store.js';
import { decisionRecorded } from '../registry/linkage-journal.js';
import { type PairLinker, RecordLinkLinker } from '../registry/pair-linker.js';

export interface DecideInput {
  /** The queued pair; or name the pair by its two record ids. */
  pairId?: string;
  recordA?: string;
  recordB?: string;
  decision: Verdict;
  reviewerId: string;
  note?: string | null;
  /** The model version the reviewer saw (default: the queued pair's). */
  modelVersion?: string | null;
}

export interface ProposeResult {
  proposed: number;
  /** Pairs with a decision in force (a rejected pair is never proposed again). */
  skippedDecided: number;
  /** Pairs whose records already belong to one person. */
  skippedSamePerson: number;
}

/**
 * Pairs proposed per round of queries (propose). A round of 250 takes 20–70 ms of work on a slow 2-core machine; with
 * rounds of 1,000 (and no turn before the first) the tracing loop held the thread 260–340 ms there (tracing-yields).
 */
const proposeChunk = 250;

/**
 * The review queue: candidate pairs in, reviewers' decisions out. A decision is stored with reviewer, time and
 * model version; a match puts both records under one person (through the PairLinker, with the decision as
 * provenance); every decision can be undone, and undoing a match takes back the links it made. Records are never
 * edited or deleted. Every change goes through the linkage journal.
 */
export class ReviewService {
  private readonly clock: () => number;
  private readonly linker: PairLinker;

  constructor(
    private readonly store: Store,
    options: { clock?: () => number; linker?: PairLinker } = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.linker = options.linker ?? new RecordLinkLinker();
  }

  /**
   * Queues pairs for review, leaving out decided pairs and pairs already one person. A few hundred pairs at a time,
   * with a turn of the event loop between: on SQLite every query resolves at once, and the tracing loop proposes a
   * batch's pairs — 12,000 of 500 records of one common name, 370 ms of queries in one stretch (tracing-yields.test).
   */
  async propose(pairs: readonly NewCandidatePair[]): Promise<ProposeResult> {
    const result: ProposeResult = { proposed: 0, skippedDecided: 0, skippedSamePerson: 0 };
    const distinct = new Map<string, NewCandidatePair>();
    for (const p of pairs) {
      if (p.recordA === p.recordB) continue;
      const [a, b] = orderedPair(p.recordA, p.recordB);
      distinct.set(`${a}\u0000${b}`, { ...p, recordA: a, recordB: b });
    }
    const all = [...distinct.entries()];
    const at = nowIso(this.clock);
    const decisions = new DecisionRepository(this.store.db);
    const links = new RecordLinkRepository(this.store.db);
    const queue = new CandidatePairRepository(this.store.db, this.store.capabilities);
    for (const chunk of slices(all, proposeChunk)) {
      // A turn before the first round too: a caller's own work (the tracing loop's merges) runs up to here.
      await nextTurn();
      const decided = await decisions.currentAmong(
        chunk.map(([, p]) => [p.recordA, p.recordB] as [string, string]),
      );
      const records = new Set<string>();
      for (const [, pair] of chunk) records.add(pair.recordA).add(pair.recordB);
      const personOf = await links.activePersons([...records]);
      const fresh: NewCandidatePair[] = [];
      for (const [key, pair] of chunk) {
        if (decided.has(key)) {
          result.skippedDecided++;
          continue;
        }
        const [la, lb] = [personOf.get(pair.recordA), personOf.get(pair.recordB)];
        if (la && lb && la === lb) {
          result.skippedSamePerson++;
          continue;
        }
        fresh.push(pair);
      }
      result.proposed += await queue.upsert(fresh, at);
    }
    return result;
  }

  /** Open pairs, highest priority first; page with the last pair of the previous page. */
  async open(
    limit = 50,
    after?: { priority: number; id: string },
    options: { withoutWithdrawn?: boolean } = {},
  ): Promise<CandidatePair[]> {
    return new CandidatePairRepository(this.store.db, this.store.capabilities).list(
      'open',
      limit,
      after,
      options,
    );
  }

  async pair(id: string): Promise<CandidatePair | undefined> {
    return new CandidatePairRepository(this.store.db, this.store.capabilities).get(id);
  }

  /** Records a decision; it supersedes the pair's earlier one (whose links, if it was a match, are taken back). */
  async decide(input: DecideInput): Promise<Decision> {
    if (!['match', 'non_match', 'unsure'].includes(input.decision)) {
      throw new DomainError('invalid', `decision must be match, non_match or unsure (got ${input.decision})`);
    }
    if (!input.reviewerId) throw new DomainError('invalid', 'a decision needs its reviewer');
    return this.store.transaction(async (trx) => {
      const pairs = new CandidatePairRepository(trx, this.store.capabilities);
      let queued: CandidatePair | undefined;
      let a = input.recordA;
      let b = input.recordB;
      if (input.pairId) {
        queued = await pairs.get(input.pairId);
        if (!queued) throw new DomainError('not_found', `no candidate pair ${input.pairId}`);
        a = queued.recordA;
        b = queued.recordB;
      }
      if (!a || !b) throw new DomainError('invalid', 'name the pair: pairId, or recordA and recordB');
      if (a === b) throw new DomainError('invalid', 'a record cannot be paired with itself');
      await this.requireRecords(trx, [a, b]);
      queued ??= await pairs.findPair(a, b);
      const at = nowIso(this.clock);
      const decisions = new DecisionRepository(trx);
      const previous = await decisions.current(a, b);
      const decision = await decisions.insert({
        recordA: a,
        recordB: b,
        decision: input.decision,
        reviewerId: input.reviewerId,
        decidedAt: at,
        modelVersion: input.modelVersion ?? queued?.modelVersion ?? null,
        note: input.note ?? null,
      });
      if (previous) {
        await decisions.supersede(previous.id, decision.id);
        // What the earlier decision did to persons (a match's links, a rejection's separation) is taken back.
        if (previous.decision === 'match' || previous.decision === 'non_match')
          await this.linker.undoDecision(trx, previous.id, input.reviewerId, at);
      }
      await decisionRecorded(trx, decision);
      const linking = { id: decision.id, reviewerId: input.reviewerId, at };
      if (input.decision === 'match')
        await this.linker.linkPair(trx, decision.recordA, decision.recordB, linking);
      // A rejection of two records the model put in one person takes them apart now, not at the next run.
      if (input.decision === 'non_match')
        await this.linker.separate(trx, decision.recordA, decision.recordB, linking);
      if (queued) await pairs.setStatus(queued.id, input.decision === 'unsure' ? 'unsure' : 'decided');
      return decision;
    });
  }

  /**
   * Undoes a decision in force: records an `undone` decision that supersedes it, takes back the links a match made,
   * and puts the pair back in the queue.
   */
  async undo(decisionId: string, reviewerId: string, reason?: string | null): Promise<Decision> {
    return this.store.transaction(async (trx) => {
      const decisions = new DecisionRepository(trx);
      const decision = await decisions.get(decisionId);
      if (!decision) throw new DomainError('not_found', `no decision ${decisionId}`);
      if (decision.decision === 'undone')
        throw new DomainError('conflict', 'an undo cannot itself be undone');
      if (decision.supersededBy) {
        throw new DomainError(
          'conflict',
          `decision ${decisionId} was already superseded by ${decision.supersededBy}`,
        );
      }
      const at = nowIso(this.clock);
      const undone = await decisions.insert({
        recordA: decision.recordA,
        recordB: decision.recordB,
        decision: 'undone',
        reviewerId,
        decidedAt: at,
        modelVersion: decision.modelVersion,
        note: reason ?? null,
      });
      await decisions.supersede(decision.id, undone.id);
      if (decision.decision === 'match' || decision.decision === 'non_match')
        await this.linker.undoDecision(trx, decision.id, reviewerId, at);
      await decisionRecorded(trx, undone);
      const pairs = new CandidatePairRepository(trx, this.store.capabilities);
      const queued = await pairs.findPair(decision.recordA, decision.recordB);
      if (queued) await pairs.setStatus(queued.id, 'open');
      return undone;
    });
  }

  /** The decisions on a pair, oldest first. */
  async history(recordA: string, recordB: string): Promise<Decision[]> {
    return new DecisionRepository(this.store.db).history(recordA, recordB);
  }

  /** Pairs rejected by a decision in force: never proposed again, never merged by linkage. */
  async rejectedPairs(): Promise<[string, string][]> {
    return new DecisionRepository(this.store.db).pairsDecided('non_match');
  }

  private async requireRecords(db: Db, ids: string[]): Promise<void> {
    const found = await new LookupRepository(db).existing('records', ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw new DomainError('not_found', `no record ${missing}`);
  }
}
