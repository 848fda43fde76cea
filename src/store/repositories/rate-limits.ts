import type { Db } from '../store.js';

/**
 * Fixed-window counters (sign-in per address and per username; family intake may use the same table). One
 * upsert per hit, atomic on both dialects: a new window restarts the count at 1.
 */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Counts one hit on `key` in the window starting at `windowStart` and answers the count so far. */
  async hit(key: string, windowStart: string): Promise<number> {
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('rate_limits.window_start', '=', eb.ref('excluded.window_start'))
            .then(eb('rate_limits.count', '+', 1))
            .else(1)
            .end(),
          window_start: eb.ref('excluded.window_start'),
        })),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Forgets windows that ended before `before`, so the table holds only live counters. */
  async prune(before: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
  }
}
