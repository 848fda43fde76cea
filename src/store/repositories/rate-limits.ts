import { sql } from 'kysely';
import type { Db } from '../store.js';

/**
 * Fixed-window counters (table rate_limits, migration 0016). Each key names one window (the caller binds the
 * window into its HMAC), so one upsert counts a hit: `INSERT … ON CONFLICT … DO UPDATE … RETURNING` reads the same
 * on SQLite and PostgreSQL, and concurrent hits on PostgreSQL cannot lose a count. A row keeps no time but its
 * `bucket`, the coarse span its window ends in, by which it is pruned.
 */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Counts one hit on `key`; answers the count so far in its window. */
  async hit(key: string, bucket: string): Promise<number> {
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, bucket, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ count: sql<number>`${sql.ref('rate_limits.count')} + 1` }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Counts one hit on `key` only while its window has fewer than `max`: answers false, writing nothing, when it
   * is full (a refused attempt leaves no row behind). One conditional upsert on both dialects.
   */
  async hitUnder(key: string, bucket: string, max: number): Promise<boolean> {
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, bucket, count: 1 })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ count: sql<number>`${sql.ref('rate_limits.count')} + 1` })
          .where('rate_limits.count', '<', max),
      )
      .returning('count')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets counters whose bucket started before `beforeIso` (their windows are over). */
  async prune(beforeIso: string): Promise<number> {
    const result = await this.db.deleteFrom('rate_limits').where('bucket', '<', beforeIso).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export interface BackoffRow {
  failures: number;
  notBefore: string;
  forgetAfter: string;
}

/**
 * The sign-in back-off (table sign_in_backoff, migration 0016): per key, the failures counted and the time before
 * which no attempt is taken. Changes are compare-and-set on the row as read, so concurrent attempts on either
 * dialect each count, and none slips past a wait another one set.
 */
export class BackoffRepository {
  constructor(private readonly db: Db) {}

  async read(key: string): Promise<BackoffRow | undefined> {
    const row = await this.db
      .selectFrom('sign_in_backoff')
      .select(['failures', 'not_before', 'forget_after'])
      .where('key', '=', key)
      .executeTakeFirst();
    return row
      ? { failures: Number(row.failures), notBefore: row.not_before, forgetAfter: row.forget_after }
      : undefined;
  }

  /** Makes the row when there is none; answers whether this call made it. */
  async create(key: string, next: BackoffRow): Promise<boolean> {
    const result = await this.db
      .insertInto('sign_in_backoff')
      .values({ key, failures: next.failures, not_before: next.notBefore, forget_after: next.forgetAfter })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Replaces the row if it is still as `seen`; answers whether it was. */
  async swap(key: string, seen: BackoffRow, next: BackoffRow): Promise<boolean> {
    const result = await this.db
      .updateTable('sign_in_backoff')
      .set({ failures: next.failures, not_before: next.notBefore, forget_after: next.forgetAfter })
      .where('key', '=', key)
      .where('failures', '=', seen.failures)
      .where('not_before', '=', seen.notBefore)
      .where('forget_after', '=', seen.forgetAfter)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Takes back one counted attempt (it turned out not to be a failure); the wait it set stays. */
  async release(key: string): Promise<void> {
    await this.db
      .updateTable('sign_in_backoff')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('key', '=', key)
      .where('failures', '>', 0)
      .execute();
  }

  async clear(key: string): Promise<number> {
    const result = await this.db.deleteFrom('sign_in_backoff').where('key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Clears every key that starts with `prefix`. */
  async clearAll(prefix: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sign_in_backoff')
      .where('key', 'like', `${prefix}%`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Forgets rows whose count is forgotten anyway. */
  async prune(beforeIso: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sign_in_backoff')
      .where('forget_after', '<', beforeIso)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
