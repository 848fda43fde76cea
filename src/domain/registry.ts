/** The registry's vocabulary: sources, events, relations (design.md "Data model details"). */

export const sourceKinds = [
  'organisation',
  'document',
  'family',
  'leak',
  'registry',
  'list',
  'other',
] as const;
export type SourceKind = (typeof sourceKinds)[number];

export const eventTypes = [
  'birth',
  'arrest',
  'held_at',
  'transfer',
  'trial',
  'sighting',
  'release',
  'death',
  'burial',
  'found',
  'residence',
] as const;
export type EventType = (typeof eventTypes)[number];

export const datePrecisions = ['day', 'month', 'year', 'estimated', 'range', 'unknown'] as const;
export type DatePrecision = (typeof datePrecisions)[number];

export const relationTypes = [
  'same_person',
  'parent_child',
  'sibling',
  'spouse',
  'alleged_perpetrator',
] as const;
export type RelationType = (typeof relationTypes)[number];

/** Relations that say two persons are different people: evidence against a same-person link. */
export const relationsAgainstSamePerson = ['sibling', 'parent_child', 'spouse'] as const;

export const certainties = ['maybe', 'likely', 'certain'] as const;
export type Certainty = (typeof certainties)[number];
