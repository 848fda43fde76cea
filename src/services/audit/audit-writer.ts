import { type AuditEntry, AuditRepository } from '../../store/repositories/audit.js';
import type { Store } from '../../store/store.js';

interface Pending {
  entry: AuditEntry;
  at: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const batchLimit = 500;

/**
 * Audit rows, written by group commit: every caller waits until its row is committed (the
 * read is not answered before it is audited), but rows that arrive while a commit is under way share the next
 * one. Under load, a hundred concurrent reads cost one transaction (one fsync on SQLite) instead of a hundred.
 */
export class AuditWriter {
  private queue: Pending[] = [];
  private draining = false;

  constructor(private readonly store: Store) {}

  append(entry: AuditEntry, at: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, at, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Let the requests already in this turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, batchLimit);
      try {
        await this.store.append([new AuditRepository(this.store.db).insertMany(batch).compile()]);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    this.draining = false;
  }
}
