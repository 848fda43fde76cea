import { createHash } from 'node:crypto';
import { DomainError } from '../../domain/errors.js';
import { RecordFeatures } from '../../linkage/features.js';
import type { LinkageModel } from '../../linkage/model.js';
import { type LabelledPair, labelledF1, trainFromLabelledPairs } from '../../linkage/retrain.js';
import { MatchRecordRepository } from '../../store/repositories/match-records.js';
import type { Store } from '../../store/store.js';
import { readModelFile } from '../batch/linkage-model-file.js';
import { recordFields } from '../review/registry-matcher.js';

/**
 * `athar model retrain --from-decisions` (docs/tracing.md): the m-probabilities re-estimated from the reviewers'
 * decisions in force (u stays the base model's, from random pairs), judged on decisions held out of the training.
 * Nothing is switched: the new model is returned for the operator to write down, compare and adopt by hand.
 */
export interface RetrainReport {
  base: string;
  model: LinkageModel;
  decisions: { matches: number; nonMatches: number; training: number; heldOut: number };
  /** Pairwise F1 on the held-out decisions, of the base model and of the retrained one. */
  f1: { before: number; after: number };
}

/** A decided pair is held out by its records' ids, so the split is the same on every run over the same decisions. */
function heldOut(a: string, b: string, share: number): boolean {
  const digest = createHash('sha256').update(`${a}|${b}`).digest();
  return (digest[0] as number) < Math.round(256 * share);
}

export async function retrainFromDecisions(
  store: Store,
  options: { model?: LinkageModel; heldOutShare?: number; now?: string } = {},
): Promise<RetrainReport> {
  const base = options.model ?? readModelFile();
  const share = options.heldOutShare ?? 0.3;
  const decided = await store.db
    .selectFrom('decisions')
    .select(['record_a', 'record_b', 'decision'])
    .where('superseded_by', 'is', null)
    .where('decision', 'in', ['match', 'non_match'])
    .execute();
  if (decided.length === 0)
    throw new DomainError(
      'invalid',
      'no reviewer decisions in force (match or non_match): nothing to learn from',
    );

  // Every record, as the linkage reads it: term frequencies are the registry's, not the decided pairs' alone.
  const features = new RecordFeatures(1 << 16);
  const indexOf = new Map<string, number>();
  const records = new MatchRecordRepository(store.db);
  let after: string | null = null;
  for (;;) {
    const page = await records.page(after, 5000);
    for (const row of page) indexOf.set(row.id, features.add(row.id, recordFields(row)));
    if (page.length < 5000) break;
    after = page[page.length - 1]?.id ?? null;
  }
  const training: LabelledPair[] = [];
  const test: LabelledPair[] = [];
  let matches = 0;
  for (const d of decided) {
    const a = indexOf.get(d.record_a);
    const b = indexOf.get(d.record_b);
    if (a === undefined || b === undefined) continue;
    const pair = { a, b, match: d.decision === 'match' };
    if (pair.match) matches++;
    (heldOut(d.record_a, d.record_b, share) ? test : training).push(pair);
  }
  if (training.length === 0 || test.length === 0)
    throw new DomainError(
      'invalid',
      `${decided.length} decisions are too few to train on some and judge on the others (both parts need at least one)`,
    );
  const { model } = trainFromLabelledPairs(features, base, training, options.now ? { now: options.now } : {});
  return {
    base: base.version,
    model,
    decisions: {
      matches,
      nonMatches: training.length + test.length - matches,
      training: training.length,
      heldOut: test.length,
    },
    f1: { before: labelledF1(features, base, test), after: labelledF1(features, model, test) },
  };
}
