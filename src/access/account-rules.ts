import { type Permission, roleHas } from './policies.js';

/**
 * The rules of accounts in numbers. Guessing passwords meets a back-off per client address and per typed username
 * (known or not, so the answers do not tell them apart): a few failures are free, then each one makes the next
 * attempt wait twice as long as the last, up to a cap. The cap is what an owner waits at worst; nothing locks an
 * account for good (issue 21, Security 4). docs/access.md quotes these numbers.
 */
export interface BackoffRule {
  /** Failures that cost no wait. */
  free: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure ... */
  firstWaitMs: number;
  /** ... up to this. */
  maxWaitMs: number;
  /** A count with no new failure for this long is forgotten. */
  forgetMs: number;
}

export const signInBackoff = {
  /** One address, whatever usernames it tries. */
  perAddress: { free: 20, firstWaitMs: 1000, maxWaitMs: 15 * 60 * 1000, forgetMs: 24 * 60 * 60 * 1000 },
  /** One typed username, from anywhere. */
  perUsername: { free: 5, firstWaitMs: 1000, maxWaitMs: 5 * 60 * 1000, forgetMs: 24 * 60 * 60 * 1000 },
} as const satisfies Record<string, BackoffRule>;

/** How long the attempt after the `failures`-th failure waits. */
export function backoffWaitMs(rule: BackoffRule, failures: number): number {
  if (failures <= rule.free) return 0;
  const doublings = Math.min(failures - rule.free - 1, 40);
  return Math.min(rule.maxWaitMs, rule.firstWaitMs * 2 ** doublings);
}

/** Attempts at `POST /api/me/password` per user and window: each checks a guess at the current password. */
export const passwordChangeLimits = { max: 5, windowMs: 15 * 60 * 1000 } as const;

/** Shortest password a person may choose; generated one-time passwords are longer. */
export const minPasswordLength = 12;

/** Usernames: 2–64 lower-case letters, digits, dot, dash or underscore, starting with a letter or digit. */
export const usernamePattern = /^[a-z0-9][a-z0-9._-]{1,63}$/;
export const usernameRule = 'use 2–64 lower-case letters, digits, dot, dash or underscore';

/**
 * What a password reset may not hand to one admin: an account that reads contact details or evidence originals,
 * left with no enrolled authenticator. Whoever holds its one-time password could then sign in as that person and
 * enrol their own authenticator (issue 21, Security 10). A reset that leaves the authenticator enrolled is safe with
 * one admin: the admin cannot give the code.
 */
export const secondAdminPermissions = ['contacts:read', 'evidence:original'] as const satisfies Permission[];

export function resetNeedsSecondAdmin(account: {
  role: string;
  totpEnrolled: boolean;
  resetTotp: boolean;
}): boolean {
  const reads = secondAdminPermissions.some((p) => roleHas(account.role, p));
  return reads && !(account.totpEnrolled && !account.resetTotp);
}

/**
 * What a role change may not hand to one admin: `contacts:read` or `evidence:original` for an existing account that
 * did not have it. Otherwise one admin could demote a liaison to a role that reads neither, reset that password in
 * one step, sign in, enrol their own authenticator and promote the account back (issue 21, Security 10): the
 * two-admin reset would be walked around. A demotion, or a change that grants neither, stays one step. A new
 * account made with such a role stays one step too: it is a new identity, seen as such in the list and the audit,
 * and borrows nobody's name.
 */
export function roleChangeNeedsSecondAdmin(from: string, to: string): boolean {
  return secondAdminPermissions.some((p) => roleHas(to, p) && !roleHas(from, p));
}

/** How long a request (a reset or a role change) waits for a second admin before it lapses. */
export const accountRequestHours = 24;
