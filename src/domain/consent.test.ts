import { describe, expect, it } from 'vitest';
import { type ConsentChoice, consentAllows, consentPurposes, currentConsent } from './consent.js';

const choice = (purpose: string, granted: boolean, recordedAt: string, id: string): ConsentChoice => ({
  id,
  purpose,
  granted,
  recordedAt,
  recordedBy: null,
});

describe('consent', () => {
  it('allows nothing that was never chosen', () => {
    for (const p of consentPurposes) expect(consentAllows([], p)).toBe(false);
  });

  it('follows the latest choice per purpose, whatever the order the rows arrive in', () => {
    const history = [
      choice('internal_use', false, '2026-02-01T00:00:00.000Z', '3'),
      choice('internal_use', true, '2026-01-01T00:00:00.000Z', '1'),
      choice('photo_comparison', true, '2026-01-01T00:00:00.000Z', '2'),
    ];
    expect(consentAllows(history, 'internal_use')).toBe(false);
    expect(consentAllows(history, 'photo_comparison')).toBe(true);
    expect(currentConsent(history).un_iimp).toBe(false);
  });

  it('breaks a tie within one millisecond by the later row id', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(
      consentAllows([choice('un_iimp', true, at, 'b'), choice('un_iimp', false, at, 'a')], 'un_iimp'),
    ).toBe(true);
    expect(
      consentAllows([choice('un_iimp', true, at, 'a'), choice('un_iimp', false, at, 'b')], 'un_iimp'),
    ).toBe(false);
  });
});
