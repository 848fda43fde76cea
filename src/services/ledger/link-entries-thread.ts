import type { Worker } from 'node:worker_threads';
import { EntryError, linkMoves, type RecordLinkRow } from '../../ledger/entries.js';
import type { PreparedEntry } from '../../ledger/prepared.js';
import { slices } from '../../store/slices.js';
import { startWorker } from '../../worker-entry.js';
import type { LinkEntriesReply, LinkEntriesRequest } from './link-entries-worker.js';

/** Links per message to the thread. */
const part = 5000;

/**
 * A thread that prepares the log entries of links moved in bulk (`linkEntries`, then as `prepareLogEntries`):
 * a registry-wide run hands it each transaction's closed and opened links and writes the provenance and the
 * persons meanwhile, on SQLite's one thread too. At 1M records that is ~3 s of digests and hashing off the
 * writing thread. Start it once for many transactions; `stop` it when done.
 */
export class LinkEntriesThread {
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (prepared: PreparedEntry[]) => void; reject: (error: Error) => void }
  >();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: LinkEntriesReply) => {
      const asked = this.waiting.get(reply.id);
      if (!asked) return;
      this.waiting.delete(reply.id);
      if ('result' in reply) asked.resolve(reply.result);
      else
        asked.reject(
          reply.error.name === 'EntryError'
            ? new EntryError(reply.error.message)
            : new Error(`preparing log entries failed: ${reply.error.message}`),
        );
    });
    const fail = (error: Error) => {
      for (const asked of this.waiting.values()) asked.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the log entries' thread stopped (exit code ${code})`)));
  }

  static start(): LinkEntriesThread {
    return new LinkEntriesThread(startWorker(import.meta.url, 'link-entries-worker', {}));
  }

  /**
   * The entries `linkEntries(closed, opened)` makes, prepared for `sequencePreparedEntries`. Sent in parts of
   * 5,000 links: what each part costs the thread is collected as it goes, not a whole transaction's at once
   * (at 1M records ~600 MB more at the peak, sent whole).
   */
  async prepare(
    closed: readonly RecordLinkRow[],
    opened: readonly RecordLinkRow[],
  ): Promise<PreparedEntry[]> {
    const { alone, moves } = linkMoves(closed, opened);
    const parts: Promise<PreparedEntry[]>[] = [this.ask({ alone, moves: [] })];
    for (const batch of slices(moves, part)) parts.push(this.ask({ alone: [], moves: batch }));
    return (await Promise.all(parts)).flat();
  }

  private ask(request: Omit<LinkEntriesRequest, 'id'>): Promise<PreparedEntry[]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request } satisfies LinkEntriesRequest);
    });
  }

  stop(): void {
    void this.worker.terminate();
  }
}
