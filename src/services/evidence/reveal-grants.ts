import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type GrantCheck = 'ok' | 'malformed' | 'expired' | 'not_yours';

/**
 * Short-lived grants to load one unblurred view: an HMAC over (evidence id, user id, expiry) with a key never
 * stored — made at start, shared by the processes of one `serve --workers` group, or given as ATHAR_REVEAL_KEY to
 * servers behind one balancer — so a grant only works on those servers, for the user it was issued to, on the
 * item it names, until it expires. The reveal that issues it is the custody event; the grant only lets
 * the browser fetch the image without putting the reason in a URL.
 */
export class RevealGrants {
  constructor(
    private readonly key: Buffer = randomBytes(32),
    readonly ttlMs = 2 * 60 * 1000,
  ) {}

  issue(evidenceId: string, userId: string, nowMs: number): { grant: string; expiresAt: string } {
    const expires = nowMs + this.ttlMs;
    const grant = `${expires.toString(36)}.${this.mac(evidenceId, userId, expires).toString('base64url')}`;
    return { grant, expiresAt: new Date(expires).toISOString() };
  }

  check(grant: string, evidenceId: string, userId: string, nowMs: number): GrantCheck {
    const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(grant);
    if (!match) return 'malformed';
    const expires = Number.parseInt(match[1] as string, 36);
    const sent = Buffer.from(match[2] as string, 'base64url');
    const expected = this.mac(evidenceId, userId, expires);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return 'not_yours';
    return nowMs > expires ? 'expired' : 'ok';
  }

  private mac(evidenceId: string, userId: string, expires: number): Buffer {
    return createHmac('sha256', this.key)
      .update(`athar-reveal\n${evidenceId}\n${userId}\n${expires}`)
      .digest();
  }
}
