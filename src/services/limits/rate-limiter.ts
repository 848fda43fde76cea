import { BackoffRepository, RateLimitRepository } from '../../store/repositories/rate-limits.js';
import type { Db } from '../../store/store.js';
import type { AppContext } from '../context.js';
import { keyedDigest, RotatingKeys, rateLimitKeysDir } from '../keys/installation-keys.js';

/** The span a counter's only time is rounded to: a row says its window ended within these hours, no closer. */
export const bucketMs = 6 * 60 * 60 * 1000;
/** How often a process forgets counters and back-offs that can no longer limit anything (also done by a timer). */
export const pruneEveryMs = 10 * 60 * 1000;

export interface Limit {
  max: number;
  windowMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Fixed-window rate limits that keep nothing to give an address back or to date what it did (issue 21, Security 3):
 * windows are aligned to the epoch, not to the first request; a counter's key is an HMAC of (what is limited, the
 * window, the value) under the key of the day the window starts in (`keys/rate-limits/`, rotated daily and deleted
 * two days on); the row keeps only the 6-hour bucket its window ends in, and is pruned once that bucket is over.
 */
export class RateLimiter {
  private readonly keys: RotatingKeys;
  private lastPrune = 0;

  constructor(private readonly ctx: AppContext) {
    this.keys = new RotatingKeys(rateLimitKeysDir(ctx.config));
  }

  /** The stored key of the window of `windowMs` holding `nowMs`, for `kind` and `value`. */
  keyOf(kind: string, value: string, windowMs: number, nowMs: number): string {
    const window = Math.floor(nowMs / windowMs);
    const key = this.keys.keyOf(window * windowMs);
    return keyedDigest(key, 'rate-limit', `${kind}\n${windowMs}\n${window}\n${value}`).slice(0, 40);
  }

  /** Counts a hit; answers whether it went over the limit, and the seconds until its window ends. */
  async hit(kind: string, value: string, limit: Limit): Promise<{ over: boolean; retryAfter: number }> {
    const now = this.ctx.clock();
    const window = Math.floor(now / limit.windowMs);
    const end = (window + 1) * limit.windowMs;
    const bucket = iso(Math.floor((end - 1) / bucketMs) * bucketMs);
    const count = await new RateLimitRepository(this.ctx.store.db).hit(
      this.keyOf(kind, value, limit.windowMs, now),
      bucket,
    );
    if (now - this.lastPrune >= pruneEveryMs) await this.prune(now);
    return { over: count > limit.max, retryAfter: Math.ceil((end - now) / 1000) };
  }

  /**
   * Counts a hit only while its window is under the limit, through `db` (a transaction, so that several limits
   * count together or not at all); answers false, counting nothing, when the window is full.
   */
  async hitUnder(db: Db, kind: string, value: string, limit: Limit): Promise<boolean> {
    const now = this.ctx.clock();
    const window = Math.floor(now / limit.windowMs);
    const end = (window + 1) * limit.windowMs;
    const bucket = iso(Math.floor((end - 1) / bucketMs) * bucketMs);
    return new RateLimitRepository(db).hitUnder(
      this.keyOf(kind, value, limit.windowMs, now),
      bucket,
      limit.max,
    );
  }

  /**
   * Forgets rate-limit counters of buckets that are over, sign-in back-offs whose count is forgotten, and rate-limit
   * keys of days gone by. Answers how many rows went.
   */
  async prune(now = this.ctx.clock()): Promise<number> {
    this.lastPrune = now;
    const db = this.ctx.store.db;
    const counters = await new RateLimitRepository(db).prune(iso(Math.floor(now / bucketMs) * bucketMs));
    const backoffs = await new BackoffRepository(db).prune(iso(now));
    this.keys.forget(Math.floor(now / (24 * 60 * 60 * 1000)));
    return counters + backoffs;
  }
}

/** Prunes on a schedule while a server runs (`athar serve`); `stop` ends it. */
export function startPruning(
  limiter: RateLimiter,
  onError: (error: unknown) => void,
  everyMs = pruneEveryMs,
): { stop(): Promise<void> } {
  const run = () => void limiter.prune().catch(onError);
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}
