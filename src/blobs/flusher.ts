import { Worker } from 'node:worker_threads';

/**
 * fsync on threads of its own. libuv's pool (4 threads) also runs sharp's decodes, and a batch's flush is hundreds
 * of fsyncs that each wait for the disk: run there, they held the pool's threads idle while decodes queued behind
 * them. Here each thread blocks in fsync(2) alone; the filesystem's journal still commits concurrent flushes
 * together.
 */
export class Flusher {
  private readonly idle: FlushThread[] = [];
  private readonly all: FlushThread[] = [];
  private readonly queue: Request[] = [];

  /** `threads`: flushes at once (threads start as they are first needed). */
  constructor(private readonly threads: number) {}

  /** fsync(2) of an open descriptor (a file, or a folder opened read-only). */
  fsync(fd: number): Promise<void> {
    return this.fsyncAll([fd]);
  }

  /**
   * fsync(2) of each descriptor, as many at once as there are threads. Each thread is sent the whole list once
   * (a message costs the sending thread about 0.1 ms, and a batch of 64 photos flushes ~400 descriptors) and
   * takes the next descriptor from a shared counter as it finishes one, so a slow flush holds up no share of the
   * list. Settles once every descriptor has been tried; rejects with the first failure.
   */
  async fsyncAll(fds: readonly number[]): Promise<void> {
    if (fds.length === 0) return;
    const next = new SharedArrayBuffer(4);
    const job = { fds: [...fds], next };
    const results = await Promise.allSettled(
      Array.from(
        { length: Math.min(this.threads, fds.length) },
        () =>
          new Promise<void>((resolve, reject) => {
            this.queue.push({ job, resolve, reject });
            this.pump();
          }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let thread = this.idle.pop();
      if (!thread && this.all.length < this.threads) thread = this.start();
      if (!thread) return;
      const request = this.queue.shift() as Request;
      thread.current = request;
      // A thread with a flush in hand keeps the process alive until it answers; an idle one does not.
      thread.worker.ref();
      thread.worker.postMessage(request.job);
    }
  }

  private start(): FlushThread {
    const worker = new Worker(threadSource, { eval: true, name: 'athar-flush', execArgv: [] });
    const thread: FlushThread = { worker, current: undefined };
    worker.unref();
    worker.on('message', (reply: { code?: string; message?: string } | null) => {
      const request = thread.current;
      thread.current = undefined;
      worker.unref();
      this.idle.push(thread);
      if (request) {
        if (reply) request.reject(Object.assign(new Error(reply.message), { code: reply.code }));
        else request.resolve();
      }
      this.pump();
    });
    worker.on('error', (error) => this.lost(thread, error));
    worker.on('exit', (code) => this.lost(thread, new Error(`flush thread exited (code ${code})`)));
    this.all.push(thread);
    return thread;
  }

  /** A thread that died (it only ever runs fsync): its request fails, the rest go to the others or a new one. */
  private lost(thread: FlushThread, error: Error): void {
    const at = this.all.indexOf(thread);
    if (at < 0) return;
    this.all.splice(at, 1);
    const idleAt = this.idle.indexOf(thread);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    const request = thread.current;
    thread.current = undefined;
    request?.reject(error);
    this.pump();
  }
}

interface Request {
  /** The descriptors, and the index of the next one to take (shared by every thread working on them). */
  job: { fds: number[]; next: SharedArrayBuffer };
  resolve: () => void;
  reject: (error: Error) => void;
}

interface FlushThread {
  worker: Worker;
  current: Request | undefined;
}

// Dynamic imports: the source runs as CommonJS or, under --input-type=module, as a module.
const threadSource = `
Promise.all([import('node:worker_threads'), import('node:fs')]).then(([{ parentPort }, { fsyncSync }]) => {
  parentPort.on('message', ({ fds, next }) => {
    // Every descriptor is tried; the first failure this thread met is its answer.
    const counter = new Int32Array(next);
    let failure = null;
    for (let i = Atomics.add(counter, 0, 1); i < fds.length; i = Atomics.add(counter, 0, 1)) {
      try {
        fsyncSync(fds[i]);
      } catch (error) {
        failure ??= { code: error.code, message: error.message };
      }
    }
    parentPort.postMessage(failure);
  });
});
`;
