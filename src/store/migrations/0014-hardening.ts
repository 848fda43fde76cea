import type { Kysely, Migration } from 'kysely';

/** Days a token may live at most (src/access/sessions.ts `tokenLifetime.maxDays`; a migration keeps its own copy). */
const tokenMaxDays = 365;

/**
 * Hardening (issue 21): every API token ends — a token made without an expiry, or with one past the bounded
 * maximum, now ends that maximum after it was made (or at once, if that is past); and the rate-limit rows keyed by
 * plain SHA-256 of an address are dropped, since a digest without a secret gives the address back (the new keys
 * are HMACs with a secret in keys/, and a counter lost here only forgets at most one window).
 */
export function hardening(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      const tokens: { id: string; created_at: string; expires_at: string | null }[] = await db
        .selectFrom('api_tokens')
        .select(['id', 'created_at', 'expires_at'])
        .execute();
      for (const t of tokens) {
        const bound = new Date(Date.parse(t.created_at) + tokenMaxDays * 24 * 60 * 60 * 1000).toISOString();
        if (t.expires_at === null || t.expires_at > bound) {
          await db.updateTable('api_tokens').set({ expires_at: bound }).where('id', '=', t.id).execute();
        }
      }
      await db.deleteFrom('rate_limits').execute();
    },
  };
}
