import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpCode, totpStep, totpUri } from './totp.js';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", base32.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238)', () => {
  it('gives the RFC test vectors (last six digits)', () => {
    expect(totpCode(rfcSecret, 59_000)).toBe('287082');
    expect(totpCode(rfcSecret, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(rfcSecret, 2_000_000_000_000)).toBe('279037');
  });

  it('accepts a code one step either side of now and names its step', () => {
    const now = 1_111_111_109_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now), now)).toBe(step);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now + 30_000), now)).toBe(step + 1);
    expect(totpStep(rfcSecret, totpCode(rfcSecret, now - 60_000), now)).toBeNull();
    expect(totpStep(rfcSecret, 'abcdef', now)).toBeNull();
    expect(totpStep(rfcSecret, '1234567', now)).toBeNull();
  });

  it('makes 160-bit secrets and an otpauth URI for apps', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = totpUri(secret, 'synthetic.user');
    expect(uri).toMatch(/^otpauth:\/\/totp\/athar:synthetic\.user\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('issuer=athar');
  });
});
