import { randomInt } from 'node:crypto';

/**
 * Case references and secrets a family writes down and types back: letters and digits that cannot be confused
 * (no 0/O, 1/I/L), upper case, in groups of four. `randomInt` draws uniformly, so every character carries
 * log2(31) ≈ 4.95 bits.
 */
export const caseAlphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

const referenceChars = 8; // ≈ 39.6 bits: enough to stay unique; the secret carries the guessing resistance.
const secretChars = 20; // ≈ 99 bits, above the 80 the brief asks for.

function draw(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += caseAlphabet[randomInt(caseAlphabet.length)];
  return out;
}

function groups(text: string): string {
  return (text.match(/.{1,4}/g) ?? []).join('-');
}

/** A new case reference: ATH-XXXX-XXXX. */
export function newCaseReference(): string {
  return `ATH-${groups(draw(referenceChars))}`;
}

/** A new case secret: XXXX-XXXX-XXXX-XXXX-XXXX. */
export function newCaseSecret(): string {
  return groups(draw(secretChars));
}

/** What a family typed, folded to the characters that count: case, width, spaces and dashes do not. */
function fold(text: string): string {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-_.]/g, '');
}

/**
 * A typed reference in its stored form, or the folded text when it cannot be one (the lookup then misses, after
 * doing the same work as a hit would; see IntakeService.lookupStatus).
 */
export function canonicalReference(typed: string): string {
  let s = fold(typed);
  if (s.startsWith('ATH')) s = s.slice(3);
  return s.length === referenceChars ? `ATH-${groups(s)}` : s;
}

/** A typed secret in the form that was hashed when it was issued. */
export function canonicalSecret(typed: string): string {
  return groups(fold(typed));
}
