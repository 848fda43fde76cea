/**
 * The rules of accounts in numbers. Guessing passwords meets fixed-window rate limits per client address and per
 * username, and a lockout after consecutive failures. docs/access.md quotes these numbers.
 */
export const signInLimits = {
  /** Attempts one address may make per window, whatever usernames it tries. */
  perAddress: { max: 30, windowMs: 15 * 60 * 1000 },
  /** Attempts on one username per window, from anywhere (known or not, so answers do not tell them apart). */
  perUsername: { max: 10, windowMs: 15 * 60 * 1000 },
  /** Consecutive failures (wrong password or wrong TOTP code) that lock an account ... */
  lockAfter: 5,
  /** ... and for how long. */
  lockMs: 15 * 60 * 1000,
} as const;

/** The start of the fixed window holding a moment, as stored text. */
export function windowStart(nowMs: number, windowMs: number): string {
  return new Date(Math.floor(nowMs / windowMs) * windowMs).toISOString();
}

/** Attempts at `POST /api/me/password` per user and window: each checks a guess at the current password. */
export const passwordChangeLimits = { max: 5, windowMs: 15 * 60 * 1000 } as const;

/** Shortest password a person may choose; generated one-time passwords are longer. */
export const minPasswordLength = 12;

/** Usernames: 2–64 lower-case letters, digits, dot, dash or underscore, starting with a letter or digit. */
export const usernamePattern = /^[a-z0-9][a-z0-9._-]{1,63}$/;
export const usernameRule = 'use 2–64 lower-case letters, digits, dot, dash or underscore';
