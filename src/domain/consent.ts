/**
 * Consent per report and purpose (design.md "Consent"): separate, withdrawable, enforced wherever data leaves.
 * Choices are kept as an append-only history; the latest choice per purpose holds, and a purpose never chosen is
 * not allowed.
 */
export const consentPurposes = [
  'internal_use',
  'partner_ngos',
  'national_commission',
  'un_iimp',
  'icmp_icrc',
  'criminal_proceedings',
  'contact_with_results',
  'photo_comparison',
] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];

/** The public form's camelCase keys for each purpose (the API contract). */
export const consentFormKeys = {
  internalUse: 'internal_use',
  partnerNgos: 'partner_ngos',
  nationalCommission: 'national_commission',
  unIimp: 'un_iimp',
  icmpIcrc: 'icmp_icrc',
  criminalProceedings: 'criminal_proceedings',
  contactWithResults: 'contact_with_results',
  photoComparison: 'photo_comparison',
} as const satisfies Record<string, ConsentPurpose>;

export interface ConsentChoice {
  purpose: string;
  granted: boolean;
  /** ISO time the choice was recorded. */
  recordedAt: string;
  /** The liaison who recorded it; null when the family chose on the public form. */
  recordedBy: string | null;
  /** Row id (UUIDv7, time-ordered): breaks ties between choices made in the same millisecond. */
  id: string;
}

function later(a: ConsentChoice, b: ConsentChoice): boolean {
  return a.recordedAt > b.recordedAt || (a.recordedAt === b.recordedAt && a.id > b.id);
}

/** The choice that holds now for each purpose, from a report's history. */
export function currentConsent(history: readonly ConsentChoice[]): Record<ConsentPurpose, boolean> {
  const latest = new Map<string, ConsentChoice>();
  for (const choice of history) {
    const seen = latest.get(choice.purpose);
    if (!seen || later(choice, seen)) latest.set(choice.purpose, choice);
  }
  return Object.fromEntries(consentPurposes.map((p) => [p, latest.get(p)?.granted ?? false])) as Record<
    ConsentPurpose,
    boolean
  >;
}

/** Whether a report's consent history allows `purpose` now. No choice for a purpose means no. */
export function consentAllows(history: readonly ConsentChoice[], purpose: ConsentPurpose): boolean {
  return currentConsent(history)[purpose];
}

/**
 * Roles that still see a record whose report withdrew internal use: the liaisons, who keep the family's case
 * and must be able to tell them what happened to it. Everyone else must not find or read such a record.
 */
export const seesWithdrawnRecords: ReadonlySet<string> = new Set(['liaison']);
