import type { Worker } from 'node:worker_threads';
import type { StagedBlob } from '../blobs/blob-store.js';
import type { FsBlobStore, StagedFile } from '../blobs/fs-blob-store.js';
import { startWorker } from '../worker-entry.js';
import type { Described } from './ingest-describe.js';

export type PoolJob =
  | { op: 'read'; id: number; path: Uint8Array; inMemoryLimit: number }
  | { op: 'describe'; id: number; name: string; maxPixels: number }
  | { op: 'drop'; id: number };

export type PoolReply =
  | { id: number; refused: string }
  | { id: number; large: true }
  | { id: number; original: StagedFile }
  | { id: number; described: Described; views: StagedFile[] }
  | { id: number; error: { name: string; message: string; stack?: string | undefined } };

/** A file a worker has read and staged, and holds in memory until it is described or dropped. */
export interface HeldFile {
  id: number;
  worker: PooledWorker;
  /** The staged original, now the main thread's to persist or discard. */
  original: StagedBlob;
}

export type ReadOutcome = { refused: string } | { large: true } | { held: HeldFile };

interface PooledWorker {
  worker: Worker;
  /** Requests sent and not answered. */
  busy: number;
  /** Files read by it and not yet described or dropped. */
  holding: number;
  /** Whether it has loaded its modules (from TypeScript sources, through tsx, that takes a second or two). */
  ready: boolean;
}

interface Waiting {
  resolve: (reply: PoolReply) => void;
  reject: (error: unknown) => void;
  worker: PooledWorker;
}

/**
 * Worker threads that read, stage and describe files for ingest (ingest-worker.ts), so that both cores hash,
 * parse, run PDQ and make views while the main thread dedupes and commits rows: on the main thread alone, that
 * work left the decoders waiting for it. Kept for the process's life once started (an ingest's first files are
 * done on the main thread while they start), and unreferenced while idle, so that they never keep a process
 * alive.
 */
export class IngestPool {
  private readonly workers: PooledWorker[];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private readonly waitingForStart: (() => void)[] = [];
  private broken: unknown;

  private constructor(
    private readonly store: FsBlobStore,
    size: number,
  ) {
    this.workers = Array.from({ length: size }, () => {
      const worker = startWorker(import.meta.url, 'ingest-worker', {
        workerData: { blobRoot: store.location },
      });
      const pooled: PooledWorker = { worker, busy: 0, holding: 0, ready: false };
      worker.on('message', (reply: PoolReply | { ready: true }) => {
        if (!('ready' in reply)) return this.settle(reply);
        pooled.ready = true;
        if (this.ready) for (const wake of this.waitingForStart.splice(0)) wake();
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`an ingest worker stopped (exit code ${code})`)));
      // After the listeners: listening for messages refs the worker's port again.
      worker.unref();
      return pooled;
    });
  }

  private static readonly pools = new Map<string, IngestPool>();

  /** The pool for this blob store, started on first use. */
  static of(store: FsBlobStore, size: number): IngestPool {
    let pool = IngestPool.pools.get(store.location);
    if (!pool || pool.broken !== undefined || pool.workers.length !== size) {
      pool = new IngestPool(store, size);
      IngestPool.pools.set(store.location, pool);
    }
    return pool;
  }

  /**
   * Whether every worker has started. Until then an ingest does its files itself rather than wait: starting
   * the workers costs as much as dozens of files.
   */
  get ready(): boolean {
    return this.broken === undefined && this.workers.every((w) => w.ready);
  }

  /** Resolves once every worker has started (for tests that must see the workers at work). */
  started(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.waitingForStart.push(resolve));
  }

  /** Reads and stages a file on the least loaded worker, which holds its content for `describe`. */
  async read(path: Buffer, inMemoryLimit: number): Promise<ReadOutcome> {
    const pooled = this.workers.reduce((a, b) => (b.busy + b.holding < a.busy + a.holding ? b : a));
    const id = this.nextId++;
    const reply = await this.request(pooled, { op: 'read', id, path, inMemoryLimit });
    if ('refused' in reply) return { refused: reply.refused };
    if ('large' in reply) return { large: true };
    if (!('original' in reply)) throw new Error('unexpected reply to read');
    pooled.holding++;
    return { held: { id, worker: pooled, original: this.store.adopt(reply.original) } };
  }

  /** Describes a held file; the derived views come back staged in the store. The worker lets the file go. */
  async describe(
    file: HeldFile,
    name: string,
    maxPixels: number,
  ): Promise<{ described: Described; views: StagedBlob[] }> {
    file.worker.holding--;
    const reply = await this.request(file.worker, { op: 'describe', id: file.id, name, maxPixels });
    if (!('described' in reply)) throw new Error('unexpected reply to describe');
    return { described: reply.described, views: reply.views.map((v) => this.store.adopt(v)) };
  }

  /** Lets a held file go undescribed (its content was known). */
  drop(file: HeldFile): void {
    file.worker.holding--;
    if (this.broken === undefined)
      file.worker.worker.postMessage({ op: 'drop', id: file.id } satisfies PoolJob);
  }

  private request(pooled: PooledWorker, job: PoolJob): Promise<PoolReply> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.waiting.set(job.id, { resolve, reject, worker: pooled });
      if (pooled.busy++ === 0) pooled.worker.ref();
      pooled.worker.postMessage(job);
    });
  }

  private settle(reply: PoolReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (--waiting.worker.busy === 0) waiting.worker.worker.unref();
    if ('error' in reply) {
      const error = new Error(reply.error.message);
      error.name = reply.error.name;
      if (reply.error.stack) error.stack = reply.error.stack;
      waiting.reject(error);
    } else {
      waiting.resolve(reply);
    }
  }

  private fail(error: unknown): void {
    this.broken ??= error;
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.reject(error);
    }
    for (const w of this.workers) {
      w.busy = 0;
      w.worker.unref();
    }
  }
}
