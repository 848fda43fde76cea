import {
  type BlockingOptions,
  type CandidatePairs,
  candidatePairs,
  defaultBlockingOptions,
  linkingRules,
  type RuleStats,
} from './blocking.js';
import { beyondDoubtWeight, type ClusterOptions, type ClusterStats, clusterPairs } from './clustering.js';
import type { RecordFeatures } from './features.js';
import type { CompiledModel } from './model.js';
import type { PairBuffer } from './pairs.js';
import { Scorer } from './scorer.js';
import { TermFrequencies } from './term-frequencies.js';

/** Scores pairs [from, to) into `out` (the unit of work a worker thread does). */
export function scoreRange(
  scorer: Scorer,
  a: Int32Array,
  b: Int32Array,
  from: number,
  to: number,
  out: Float32Array,
): void {
  for (let p = from; p < to; p++) out[p] = scorer.score(a[p] as number, b[p] as number);
}

export interface LinkOptions {
  blocking?: BlockingOptions;
  /** Pairs never to be merged (reviewers' rejections), keys from clustering.pairKey. */
  cannotLink?: ReadonlySet<number>;
  /** Pairs people put together: one cluster, whatever the model says (clustering.ClusterOptions). */
  mustLink?: readonly (readonly [number, number])[];
  /**
   * Scores candidate pairs elsewhere while blocking finds them (the link service's worker threads); by default
   * this thread scores them once blocking is over.
   */
  scoring?: (tf: TermFrequencies) => PairScoring;
  onStage?: (stage: 'blocking' | 'scoring' | 'clustering', done: number, total: number) => void;
  /** Told of every link the clustering guard refused (clustering.ClusterOptions.onRefused). */
  onRefused?: ClusterOptions['onRefused'];
}

/** Scoring that runs beside blocking: blocking writes into `pairs`, which hands each pair on once written. */
export interface PairScoring {
  pairs: PairBuffer;
  /**
   * Every pair's weight, once blocking has closed `pairs`; `scorer`, when given, lets the calling thread score the
   * pairs still waiting beside the other threads.
   */
  weights(scorer?: Scorer): Promise<Float32Array>;
  /** Blocking failed: stop scoring. */
  abort(): Promise<void>;
}

export interface LinkResult {
  clusterOf: Int32Array;
  candidates: CandidatePairs;
  weights: Float32Array;
  tf: TermFrequencies;
  scorer: Scorer;
  priorWeight: number;
  thresholdWeight: number;
  blocking: RuleStats[];
  clustering: ClusterStats;
}

/** Dedupe and link prepared records: blocking, scoring, guarded clustering. */
export async function linkFeatures(
  f: RecordFeatures,
  model: CompiledModel,
  options: LinkOptions = {},
): Promise<LinkResult> {
  f.settleNameOrder();
  const tf = TermFrequencies.of(f);
  const scoring = options.scoring?.(tf);
  let candidates: CandidatePairs;
  try {
    candidates = candidatePairs(
      f,
      linkingRules,
      options.blocking ?? defaultBlockingOptions,
      (d, t) => options.onStage?.('blocking', d, t),
      scoring?.pairs,
    );
  } catch (error) {
    await scoring?.abort();
    throw error;
  }
  const scorer = new Scorer(f, model, tf);
  const count = candidates.pairs.length;
  options.onStage?.('scoring', 0, count);
  let weights: Float32Array;
  if (scoring) {
    weights = await scoring.weights(scorer);
  } else {
    weights = new Float32Array(count);
    const step = 1 << 16;
    for (let from = 0; from < count; from += step) {
      scoreRange(scorer, candidates.pairs.a, candidates.pairs.b, from, Math.min(count, from + step), weights);
      options.onStage?.('scoring', Math.min(count, from + step), count);
    }
  }
  const priorWeight = model.priorWeight(f.size);
  const thresholdWeight = model.thresholdWeight(f.size);
  const duplicateWeight = beyondDoubtWeight(priorWeight);
  options.onStage?.('clustering', 0, 1);
  const { clusterOf, stats } = clusterPairs(
    f,
    candidates.pairs.a,
    candidates.pairs.b,
    weights,
    count,
    scorer,
    {
      thresholdWeight,
      guardWeight: model.guardWeight(f.size),
      minDisagreement: model.model.clustering.minDisagreement,
      tolerance: model.model.clustering.tolerance,
      duplicateWeight,
      cannotLink: options.cannotLink,
      ...(options.mustLink ? { mustLink: options.mustLink } : {}),
      ...(options.onRefused ? { onRefused: options.onRefused } : {}),
    },
  );
  options.onStage?.('clustering', 1, 1);
  return {
    clusterOf,
    candidates,
    weights,
    tf,
    scorer,
    priorWeight,
    thresholdWeight,
    blocking: candidates.stats,
    clustering: stats,
  };
}
