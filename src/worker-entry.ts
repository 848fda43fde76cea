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
