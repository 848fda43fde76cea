import type { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { startWorker } from '../../worker-entry.js';
import { StoreError } from '../errors.js';
import type { AppendAnswer, AppendJob } from './sqlite-appender-worker.js';

/**
 * Commits writes on a second SQLite connection in a worker thread. better-sqlite3 is synchronous, so a commit on
 * the main connection holds the event loop for its fsync (~4 ms here with synchronous=FULL): under load the audit
 * rows of reads stalled every other request for that long. Here the caller still waits until its rows are
 * committed, but the event loop goes on meanwhile. For appends that need no read of their own transaction.
 */
export class SqliteAppender {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  /** Runs the statements in one transaction on the worker's connection; resolves once it is committed. */
  append(statements: readonly CompiledQuery[]): Promise<void> {
    const worker = this.started();
    const id = this.nextId++;
    const job: AppendJob = {
      id,
      statements: statements.map((s) => ({ sql: s.sql, parameters: [...s.parameters] })),
    };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Only an append under way keeps the process alive; an idle worker must not hold it open.
      if (this.pending.size === 1) worker.ref();
      worker.postMessage(job);
    });
  }

  /** Waits for the appends under way, then stops the worker. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      // Messages are handled in order: every job sent before this one is answered first.
      worker.postMessage('close');
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(import.meta.url, 'sqlite-appender-worker', {
      workerData: { file: this.file },
    });
    worker.on('message', (answer: AppendAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if (answer.ok) waiting.resolve();
      else waiting.reject(new StoreError(`${this.file}: ${answer.message}`, 'write_failed'));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) =>
      fail(new StoreError(`${this.file}: appender failed: ${error.message}`, 'write_failed')),
    );
    worker.on('exit', (code) => {
      if (this.pending.size > 0)
        fail(new StoreError(`${this.file}: appender stopped (exit ${code})`, 'write_failed'));
    });
    // After the listeners: adding a 'message' listener refs a worker again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
