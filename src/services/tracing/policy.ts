import type { LinkageModel } from '../../linkage/model.js';

/**
 * What the tracing loop does with a scored pair (docs/tracing.md): link it by itself at or above `autoLinkAt` (when
 * the clustering guard lets it), queue it for a reviewer from `reviewFrom`, and leave it below. The thresholds come
 * from the model file; these defaults hold for a model file that does not give them.
 */
export interface TracingPolicy {
  autoLinkAt: number;
  reviewFrom: number;
  /** A family report's candidates are kept from this probability (liaisons see them; the family never does). */
  candidatesFrom: number;
  /** Candidates taken per new record and per report. */
  k: number;
}

export const defaultAutoLinkAt = 0.995;
export const defaultReviewFrom = 0.2;

export function tracingPolicy(model: LinkageModel): TracingPolicy {
  const autoLinkAt = model.autoLinkAt ?? defaultAutoLinkAt;
  const reviewFrom = Math.min(model.reviewFrom ?? defaultReviewFrom, autoLinkAt);
  return { autoLinkAt, reviewFrom, candidatesFrom: Math.min(reviewFrom, 0.05), k: 10 };
}

/** The model the registry-wide job clusters with: the same model, linking at `autoLinkAt`. */
export function linkingModel(model: LinkageModel, policy: TracingPolicy): LinkageModel {
  return { ...model, threshold: policy.autoLinkAt };
}

/** The link bases a person chose (as opposed to the record's own person, or the model's). */
export const humanBases: ReadonlySet<string> = new Set([
  'manual',
  'review_decision',
  'identification',
  'import',
]);
