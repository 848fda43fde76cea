import { sql } from 'kysely';
import { windowStart } from '../../access/account-rules.js';
import type { Db } from '../store.js';

/**
 * Fixed-window counters (table rate_limits, migration 0006). One upsert counts a hit and starts a new window when
 * the stored one has passed; `INSERT … ON CONFLICT … DO UPDATE … RETURNING` reads the same on SQLite and
 * PostgreSQL, so no dialect branch is needed and concurrent hits on PostgreSQL cannot lose a count.
 */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Counts one hit on `key` in the window of `windowMs` that holds `nowMs`; answers the count so far in it. */
  async hit(key: string, windowMs: number, nowMs: number): Promise<number> {
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart(nowMs, windowMs), count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${sql.ref('rate_limits.window_start')} = ${sql.ref('excluded.window_start')} then ${sql.ref('rate_limits.count')} + 1 else 1 end`,
          window_start: sql<string>`${sql.ref('excluded.window_start')}`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Drops counters whose window started before `beforeIso` (they no longer limit anything). */
  /** Forgets windows that started before `beforeIso` (only those of keys starting with `prefix`, when given). */
  async prune(beforeIso: string, prefix?: string): Promise<number> {
    let q = this.db.deleteFrom('rate_limits').where('window_start', '<', beforeIso);
    if (prefix) q = q.where('key', 'like', `${prefix}%`);
    const result = await q.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Counts one hit on `key` only while the window holding `nowMs` has fewer than `max`: answers false, writing
   * nothing, when it is full (a refused attempt leaves no row behind). One conditional upsert on both dialects.
   */
  async hitUnder(key: string, windowMs: number, nowMs: number, max: number): Promise<boolean> {
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart(nowMs, windowMs), count: 1 })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            count: sql<number>`case when ${sql.ref('rate_limits.window_start')} = ${sql.ref('excluded.window_start')} then ${sql.ref('rate_limits.count')} + 1 else 1 end`,
            window_start: sql<string>`${sql.ref('excluded.window_start')}`,
          })
          .where((eb) =>
            eb.or([
              eb('rate_limits.window_start', '<>', eb.ref('excluded.window_start')),
              eb('rate_limits.count', '<', max),
            ]),
          ),
      )
      .returning('count')
      .executeTakeFirst();
    return row !== undefined;
  }
}
