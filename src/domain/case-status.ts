/**
 * A person's case status, derived from the claims made about it and never stored (design.md, "Claims are
 * append-only"). Pure: the same claims always give the same status. docs/registry.md states the rules.
 */

export const assertionKinds = [
  // PFIF 1.4 status values.
  'information_sought',
  'believed_alive',
  'believed_missing',
  'believed_dead',
  // What Syrian sources add.
  'seen_in_detention',
  'death_reported_by_civil_registry',
  'death_certificate_found',
  'family_recognition_in_photo',
  'identified_by_dna',
  'remains_found',
  'found_alive',
  'closed_duplicate',
] as const;
export type AssertionKind = (typeof assertionKinds)[number];

export const caseStatuses = [
  'reported_missing',
  'believed_alive',
  'believed_dead_unconfirmed',
  'identified_deceased',
  'remains_unidentified',
  'found_alive',
  'closed_duplicate',
] as const;
export type CaseStatus = (typeof caseStatuses)[number];

export interface Claim {
  kind: string;
  /** ISO time (or date) the claim was made; later claims outweigh earlier ones of the same tier. */
  assertedAt: string;
}

/** Soft claims: what each says, and how it ranks against a claim made at the same time. */
const soft: Record<string, { status: CaseStatus; rank: number }> = {
  believed_dead: { status: 'believed_dead_unconfirmed', rank: 3 },
  death_reported_by_civil_registry: { status: 'believed_dead_unconfirmed', rank: 3 },
  death_certificate_found: { status: 'believed_dead_unconfirmed', rank: 3 },
  // A family's recognition of a photo is strong, but an identification needs two reviewers (or DNA) to confirm it.
  family_recognition_in_photo: { status: 'believed_dead_unconfirmed', rank: 3 },
  believed_alive: { status: 'believed_alive', rank: 2 },
  seen_in_detention: { status: 'believed_alive', rank: 2 },
  believed_missing: { status: 'reported_missing', rank: 1 },
  information_sought: { status: 'reported_missing', rank: 1 },
};

/**
 * The status the claims support, in tiers:
 * 1. a duplicate closed stays closed;
 * 2. settled outcomes — identified by DNA or by a confirmed identification (identified_deceased), found alive — the
 *    latest of them wins;
 * 3. remains recorded without a name: remains_unidentified;
 * 4. otherwise the latest soft claim (death reports, sightings, PFIF's believed_*; at the same time a death claim
 *    outranks a sighting, which outranks "missing");
 * 5. with no claim at all: reported_missing.
 * Unknown kinds are ignored, so a newer athar's claims never break an older one's derivation.
 */
export function deriveCaseStatus(
  claims: readonly Claim[],
  options: { confirmedIdentification?: boolean } = {},
): CaseStatus {
  if (claims.some((c) => c.kind === 'closed_duplicate')) return 'closed_duplicate';
  let settled: { status: CaseStatus; at: string } | undefined;
  if (options.confirmedIdentification) settled = { status: 'identified_deceased', at: '' };
  for (const c of claims) {
    const status =
      c.kind === 'identified_by_dna'
        ? 'identified_deceased'
        : c.kind === 'found_alive'
          ? 'found_alive'
          : undefined;
    if (status && (!settled || c.assertedAt >= settled.at)) settled = { status, at: c.assertedAt };
  }
  if (settled) return settled.status;
  if (claims.some((c) => c.kind === 'remains_found')) return 'remains_unidentified';
  let best: { status: CaseStatus; rank: number; at: string } | undefined;
  for (const c of claims) {
    const s = soft[c.kind];
    if (!s) continue;
    if (!best || c.assertedAt > best.at || (c.assertedAt === best.at && s.rank > best.rank)) {
      best = { ...s, at: c.assertedAt };
    }
  }
  return best?.status ?? 'reported_missing';
}
