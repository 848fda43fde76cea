import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const period = 30;
const issuer = 'athar';

function totp(secret: string, label = ''): TOTP {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period });
}

/** A new shared secret (160 bits, as RFC 4226 recommends), base32 for typing into an app. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function totpUri(secret: string, username: string): string {
  return totp(secret, username).toString();
}

/**
 * The time step a code belongs to, if it is right for now or one step either side (clock drift); null if not.
 * Callers refuse a step that is not newer than the last one accepted, so a code works only once.
 */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const t = totp(secret);
  const delta = t.validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return t.counter({ timestamp: nowMs }) + delta;
}

/** The code for a moment: what an authenticator app shows (tests use it). */
export function totpCode(secret: string, nowMs: number): string {
  return totp(secret).generate({ timestamp: nowMs });
}
