export type Verdict = 'match' | 'non_match' | 'unsure';

/** The review queue's keys: m(atch), n(on-match), u(nsure). Latin letters on any keyboard layout. */
const byKey: Record<string, Verdict> = { m: 'match', n: 'non_match', u: 'unsure' };
/** The same physical keys on an Arabic layout (ة on M, ى on N, ع on U), so reviewers need not switch layout. */
const byCode: Record<string, Verdict> = { KeyM: 'match', KeyN: 'non_match', KeyU: 'unsure' };

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** Tag name of the focused element: typing in a note must not decide a pair. */
  targetTag?: string;
}

export function verdictForKey(event: KeyLike): Verdict | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const tag = event.targetTag?.toUpperCase();
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return null;
  return byKey[event.key.toLowerCase()] ?? (event.code ? (byCode[event.code] ?? null) : null);
}
