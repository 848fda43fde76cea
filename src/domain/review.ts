/** The review's vocabulary: candidate pairs, reviewers' decisions, identifications. */

/** A reviewer's verdict on a candidate pair. */
export const verdicts = ['match', 'non_match', 'unsure'] as const;
export type Verdict = (typeof verdicts)[number];

/** What a stored decision says; `undone` marks the undoing of an earlier decision (which it supersedes). */
export const decisionKinds = [...verdicts, 'undone'] as const;
export type DecisionKind = (typeof decisionKinds)[number];

/** Where a candidate pair stands in the review queue. */
export const candidateStatuses = ['open', 'decided', 'unsure'] as const;
export type CandidateStatus = (typeof candidateStatuses)[number];

export const identificationStatuses = [
  'proposed',
  'confirmed',
  'family_informed',
  'rejected',
  'withdrawn',
] as const;
export type IdentificationStatus = (typeof identificationStatuses)[number];

/** The steps an identification's history records. */
export const identificationStepKinds = ['proposed', 'confirmed', 'family_informed', 'rejected'] as const;
export type IdentificationStepKind = (typeof identificationStepKinds)[number];

/**
 * How much a reviewer's decision on a candidate pair does, to serve the queue highest first (docs/tracing.md,
 * "Review order"): a pair touching a family's report comes before any other (a family is waiting); then the pairs
 * the model is least sure of (probability near 0.5: a decision there settles the most, where one near 0 or 1 only
 * confirms the model), weighed up slowly by how many records the decision would join or keep apart.
 */
export function reviewPriority(pair: {
  probability: number;
  familyReport?: boolean;
  /** The records of both persons the pair's records belong to (2 when unknown). */
  records?: number;
}): number {
  const uncertainty = 1 - Math.abs(2 * Math.min(1, Math.max(0, pair.probability)) - 1);
  const reach = 1 + 0.25 * Math.log2(Math.max(2, pair.records ?? 2));
  return (pair.familyReport ? 4 : 0) + uncertainty * reach;
}
