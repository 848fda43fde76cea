import type { Worker } from 'node:worker_threads';
import type { StagedBlob } from '../blobs/blob-store.js';
import type { FsBlobStore, StagedFile } from '../blobs/fs-blob-store.js';
import type { Described } from './ingest-describe.js';
import { startWorker } from './worker-entry.js';

export interface DescribeJob {
  id: number;
  /** The file's bytes, moved to the worker (not copied): the main thread has staged the original already. */
  content: ArrayBuffer;
  length: number;
  name: string;
  maxPixels: number;
}

export type DescribeReply =
  | { id: number; described: Described; views: StagedFile[] }
  | { id: number; error: { name: string; message: string; stack?: string | undefined } };

interface Waiting {
  resolve: (value: { described: Described; views: StagedBlob[] }) => void;
  reject: (error: unknown) => void;
  worker: PooledWorker;
}

interface PooledWorker {
  worker: Worker;
  busy: number;
}

/**
 * Worker threads that describe files for ingest (ingest-worker.ts), so that both cores hash, parse, run PDQ and
 * make views while the main thread reads, stages originals and commits rows: on the main thread alone, that
 * work left the decoders waiting for it. Kept for the process's life once started (an ingest's first files pay
 * for starting them), and unreferenced while idle, so that they never keep a process alive.
 */
export class IngestPool {
  private readonly workers: PooledWorker[];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private broken: unknown;

  private constructor(
    private readonly store: FsBlobStore,
    size: number,
  ) {
    this.workers = Array.from({ length: size }, () => {
      const worker = startWorker(import.meta.url, 'ingest-worker', { workerData: { blobRoot: store.location } });
      const pooled: PooledWorker = { worker, busy: 0 };
      worker.unref();
      worker.on('message', (reply: DescribeReply) => this.settle(pooled, reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`an ingest worker stopped (exit code ${code})`)));
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
   * Describes a file whose whole content is in `content` (an unshared buffer, as ingest reads it: it is moved
   * to the worker and unusable here afterwards). The derived views come back staged in `store`.
   */
  describe(
    content: Buffer,
    name: string,
    maxPixels: number,
  ): Promise<{ described: Described; views: StagedBlob[] }> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    const pooled = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    const job: DescribeJob = {
      id,
      content: content.buffer as ArrayBuffer,
      length: content.length,
      name,
      maxPixels,
    };
    if (content.byteOffset !== 0) throw new Error('describe needs a buffer of its own');
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, worker: pooled });
      if (pooled.busy++ === 0) pooled.worker.ref();
      pooled.worker.postMessage(job, [job.content]);
    });
  }

  private settle(pooled: PooledWorker, reply: DescribeReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (--pooled.busy === 0) pooled.worker.unref();
    if ('error' in reply) {
      const error = new Error(reply.error.message);
      error.name = reply.error.name;
      if (reply.error.stack) error.stack = reply.error.stack;
      waiting.reject(error);
    } else {
      waiting.resolve({ described: reply.described, views: reply.views.map((v) => this.store.adopt(v)) });
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
