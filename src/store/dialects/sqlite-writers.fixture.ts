import { getMeta, type Store, setMeta } from '../store.js';

/**
 * Adds one to the meta value `counter` `times` times, each in its own transaction that reads before it writes (as
 * most of athar's transactions do), yielding to the event loop in between; answers how many transactions failed.
 * Test fixture (for the two-writer test and its child process).
 */
export async function countUp(store: Store, times: number): Promise<number> {
  let failed = 0;
  for (let i = 0; i < times; i++) {
    try {
      await store.transaction(async (trx) => {
        const n = Number((await getMeta(trx, 'counter')) ?? '0');
        await new Promise((resolve) => setTimeout(resolve, 1));
        await setMeta(trx, 'counter', String(n + 1));
      });
    } catch {
      failed++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return failed;
}
