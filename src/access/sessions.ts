/** How long credentials live (docs/access.md). */

/** Idle sessions end after this long; any request slides the window. */
export const sessionIdleMs = 8 * 60 * 60 * 1000;
/** However busy, a session ends this long after sign-in (a stolen cookie does not live for ever). */
export const sessionMaxMs = 12 * 60 * 60 * 1000;
