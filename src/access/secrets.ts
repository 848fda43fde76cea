import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A bearer secret (session cookie, API token, case secret): 32 random bytes, base64url. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How secrets are kept at rest: SHA-256 hex. They are random and long, so a fast hash is enough. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
