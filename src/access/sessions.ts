/** How long credentials live (docs/access.md). */

/** Idle sessions end after this long; any request slides the window. */
export const sessionIdleMs = 8 * 60 * 60 * 1000;
/** However busy, a session ends this long after sign-in (a stolen cookie does not live for ever). */
export const sessionMaxMs = 12 * 60 * 60 * 1000;

/** API tokens always end: this many days when no expiry is asked for, and never more than `maxDays`. */
export const tokenLifetime = { defaultDays: 90, maxDays: 365 } as const;

/** When a token made at `nowMs` ends, for the days asked for (or the default), bounded by the maximum. */
export function tokenExpiry(nowMs: number, days: number | undefined): string {
  const bounded = Math.min(days ?? tokenLifetime.defaultDays, tokenLifetime.maxDays);
  return new Date(nowMs + bounded * 24 * 60 * 60 * 1000).toISOString();
}
