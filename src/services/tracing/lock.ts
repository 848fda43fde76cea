import { hostname } from 'node:os';
import { DomainError } from '../../domain/errors.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { Store } from '../../store/store.js';

/** Owners are `host:pid:…`; a holder on this host whose process no longer exists has died. */
function diedHere(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The one lock of the registry's linking: a registry-wide run and the loop's batches never run at once. */
export const tracingLock = 'tracing';

/** A holder that stops renewing (killed) lets the lock lapse after this long. */
const ttlMs = 60_000;
const renewEveryMs = 10_000;

export interface JobLock {
  /** Extends the lock (at most every few seconds; cheap to call often). */
  renew(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes the tracing lock for `owner`, waiting up to `waitMs` while another holds it; then refuses with one line
 * naming who holds it and until when.
 */
export async function takeTracingLock(
  store: Store,
  owner: string,
  runId: string | null,
  options: { waitMs?: number; clock?: () => number } = {},
): Promise<JobLock> {
  const clock = options.clock ?? Date.now;
  const repo = new TracingRepository(store.db, store.capabilities);
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const got = await repo.lock(tracingLock, owner, runId, clock(), ttlMs);
    if (got.ok) break;
    // A holder on this machine whose process is gone died without releasing: its lock is taken over now.
    if (
      diedHere(got.holder.owner) &&
      (await repo.takeOver(tracingLock, got.holder.owner, owner, runId, clock(), ttlMs))
    )
      break;
    if (Date.now() >= deadline) {
      throw new DomainError(
        'conflict',
        `another linking job holds the registry (${got.holder.owner}${got.holder.runId ? `, run ${got.holder.runId}` : ''}, until ${got.holder.expiresAt} unless it renews): wait for it to finish`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  let renewed = Date.now();
  return {
    async renew() {
      if (Date.now() - renewed < renewEveryMs) return;
      renewed = Date.now();
      await repo.lock(tracingLock, owner, runId, clock(), ttlMs);
    },
    async release() {
      await repo.unlock(tracingLock, owner);
    },
  };
}
