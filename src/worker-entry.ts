import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on a module beside `base` (pass `import.meta.url`). From TypeScript sources (tsx, no build step) a worker does
 * not inherit the loader, so a small bootstrap loads the module through tsx's API.
 */
export function startWorker(base: string, name: string, options: WorkerOptions): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const api = import.meta.resolve('tsx/esm/api');
  const file = new URL(`./${name}.ts`, base).href;
  const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(base)}))`;
  return new Worker(code, { ...options, eval: true });
}

/** What a worker that gives one answer posts: its result, or its failure by name and message. */
export type WorkerAnswer<T> = { result: T } | { error: { name: string; message: string } };

/**
 * The one answer of a worker (started by startWorker), which is then stopped. A failure becomes `failed(error)`;
 * a thread that dies, or exits without answering, rejects too.
 */
export function answerOf<T>(
  worker: Worker,
  failed: (error: { name: string; message: string }) => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    worker.once('message', (message: WorkerAnswer<T>) => {
      if ('result' in message) resolve(message.result);
      else reject(failed(message.error));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`a worker thread stopped without answering (exit code ${code})`)),
    );
  });
}
