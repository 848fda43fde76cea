import type { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { startWorker } from '../../worker-entry.js';
import { StoreError } from '../errors.js';
import type { AppendAnswer, AppendJob } from './sqlite-appender-worker.js';

type Statement = AppendJob['statements'][number];

interface Waiting {
  statements: Statement[];
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Commits writes on a second SQLite connection in a worker thread. better-sqlite3 is synchronous, so a commit on
 * the main connection holds the event loop for its fsync (~4 ms here with synchronous=FULL): under load the audit
 * rows of reads stalled every other request for that long. Here the caller still waits until its rows are
 * committed, but the event loop goes on meanwhile. Appends that arrive while a commit is under way share the next
 * one (group commit); if a shared commit fails, each caller's statements are tried on their own, so one caller's
 * bad row never fails another's. For appends that need no read of their own transaction.
 */
export class SqliteAppender {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly sent = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private queue: Waiting[] = [];
  private flushing: Promise<void> | undefined;

  constructor(private readonly file: string) {}

  /** Runs the statements in one transaction on the worker's connection; resolves once it is committed. */
  append(statements: readonly CompiledQuery[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        statements: statements.map((s) => ({ sql: s.sql, parameters: [...s.parameters] })),
        resolve,
        reject,
      });
      this.flushing ??= this.flush();
    });
  }

  /** Commits what is queued, a group at a time, until nothing is. */
  private async flush(): Promise<void> {
    const worker = this.started();
    // Only appends under way keep the process alive; an idle worker must not hold it open.
    worker.ref();
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0);
        try {
          await this.send(group.flatMap((w) => w.statements));
          for (const w of group) w.resolve();
        } catch (error) {
          if (group.length === 1) (group[0] as Waiting).reject(error as Error);
          else for (const w of group) await this.send(w.statements).then(w.resolve, w.reject);
        }
      }
    } finally {
      this.flushing = undefined;
      this.worker?.unref();
    }
  }

  private send(statements: Statement[]): Promise<void> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.sent.set(id, { resolve, reject });
      worker.postMessage({ id, statements } satisfies AppendJob);
    });
  }

  /** Waits for the appends under way, then stops the worker. */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(import.meta.url, 'sqlite-appender-worker', {
      workerData: { file: this.file },
    });
    worker.on('message', (answer: AppendAnswer) => {
      const waiting = this.sent.get(answer.id);
      if (!waiting) return;
      this.sent.delete(answer.id);
      if (answer.ok) waiting.resolve();
      else waiting.reject(new StoreError(`${this.file}: ${answer.message}`, 'write_failed'));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.sent.values()) waiting.reject(error);
      this.sent.clear();
    };
    worker.on('error', (error) =>
      fail(new StoreError(`${this.file}: appender failed: ${error.message}`, 'write_failed')),
    );
    worker.on('exit', (code) => {
      if (this.sent.size > 0)
        fail(new StoreError(`${this.file}: appender stopped (exit ${code})`, 'write_failed'));
    });
    // After the listeners: adding a 'message' listener refs a worker again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
