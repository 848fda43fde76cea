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
