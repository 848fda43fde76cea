import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/config.js';
import { DomainError } from '../domain/errors.js';
import type { AppContext } from '../services/context.js';
import type { Store } from '../store/store.js';

/** What the process tells its operator: one line each, and the first admin's one-time password, once. */
export interface Announcer {
  note(line: string): void;
  adminPassword(admin: { username: string; password: string }): void;
}

let say: Announcer = { note: () => {}, adminPassword: () => {} };

/**
 * Serves athar: one process, or with `workers > 1` a primary that forks that many server processes over one port
 * (node:cluster), and in a worker process the worker's part. Resolves once listening; ends on SIGINT/SIGTERM.
 */
export async function serve(config: Config, announcer: Announcer): Promise<void> {
  say = announcer;
  if (cluster.isWorker) return serveWorker(config);
  if (config.server.workers > 1) return servePrimary(config);
  return serveAlone(config);
}

/** What the processes of one `serve --workers` group tell each other (through the primary). */
type GroupMessage = { athar: 'credentials-changed' };
const isGroupMessage = (m: unknown): m is GroupMessage =>
  typeof m === 'object' && m !== null && (m as GroupMessage).athar === 'credentials-changed';

/** On SQLite a worker's appends (audit rows) are committed by the primary: one writer, no lock to wait on. */
type AppendRequest = { athar: 'append'; id: number; statements: { sql: string; parameters: unknown[] }[] };
type AppendReply = { athar: 'appended'; id: number; error?: string };
const isAppendRequest = (m: unknown): m is AppendRequest =>
  typeof m === 'object' && m !== null && (m as AppendRequest).athar === 'append';
const isAppendReply = (m: unknown): m is AppendReply =>
  typeof m === 'object' && m !== null && (m as AppendReply).athar === 'appended';

/** One process: migrates, serves, and sequences the log. */
async function serveAlone(config: Config): Promise<void> {
  const { initialise } = await import('../services/setup.js');
  const { buildServer } = await import('./app.js');
  const { ctx, result } = await initialise(config);
  if (result.admin) say.adminPassword(result.admin);
  const app = await buildServer(ctx);
  await listen(app, ctx, config);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  say.note(`athar is serving http://${config.server.host}:${port} (data: ${config.dataDir})`);
  const sequencer = await startSequencer(ctx, (error) => app.log.error({ err: error }, 'log sequencer'));
  const tracer = await startTracer(ctx, (error) => app.log.error({ err: error }, 'tracing loop'));
  const ocr = await startOcr(ctx, (error) => app.log.error({ err: error }, 'ocr job'));
  const pruning = await startLimitPruning(ctx, (error) => app.log.error({ err: error }, 'pruning limits'));
  stopOnSignals(async () => {
    await pruning.stop();
    await ocr.stop();
    await tracer.stop();
    await sequencer.stop();
    await app.close();
    await ctx.close();
  });
}

/**
 * The primary of `serve --workers N`: migrates and initialises once, sequences the log (one sequencer per log),
 * forks N processes that serve the port between them (node:cluster hands connections round), gives them one
 * reveal-grant key, relays credential changes so that no process remembers a signed-out session, and restarts a
 * process that dies. SIGINT/SIGTERM stop them all.
 */
async function servePrimary(config: Config): Promise<void> {
  const { initialise } = await import('../services/setup.js');
  const { ctx, result } = await initialise(config);
  if (result.admin) say.adminPassword(result.admin);
  const sequencer = await startSequencer(ctx, (error) =>
    say.note(`log sequencer: ${(error as Error).message}`),
  );
  // One tracing loop per database, here: the workers' records reach it through the queue.
  const tracer = await startTracer(ctx, (error) => say.note(`tracing loop: ${(error as Error).message}`));
  const ocr = await startOcr(ctx, (error) => say.note(`ocr job: ${(error as Error).message}`));
  const pruning = await startLimitPruning(ctx, (error) =>
    say.note(`pruning limits: ${(error as Error).message}`),
  );
  const env = { ATHAR_REVEAL_KEY: (config.server.revealKey ?? randomBytes(32)).toString('base64') };
  const workers = config.server.workers;
  let stopping = false;
  let listening = 0;
  const everListened = new WeakSet<Worker>();

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    await Promise.all(
      alive.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
    await pruning.stop();
    await ocr.stop();
    await tracer.stop();
    await sequencer.stop();
    await ctx.close();
    process.exit(code);
  };

  const { CompiledQuery } = await import('kysely');
  cluster.on('message', (from, message: unknown) => {
    if (isAppendRequest(message)) {
      const statements = message.statements.map((s) => CompiledQuery.raw(s.sql, s.parameters));
      ctx.store.append(statements).then(
        () => from.isConnected() && from.send({ athar: 'appended', id: message.id } satisfies AppendReply),
        (error: Error) =>
          from.isConnected() &&
          from.send({ athar: 'appended', id: message.id, error: error.message } satisfies AppendReply),
      );
      return;
    }
    if (!isGroupMessage(message)) return;
    for (const w of Object.values(cluster.workers ?? {}))
      if (w && w !== from && w.isConnected()) w.send(message);
  });
  cluster.on('listening', (worker, address) => {
    everListened.add(worker);
    listening++;
    if (listening === workers) {
      say.note(
        `athar is serving http://${config.server.host}:${address.port} with ${workers} processes (data: ${config.dataDir})`,
      );
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!everListened.has(worker)) {
      // It never served (the port is taken, the database unreachable…): it said why; starting more would not help.
      say.note(`a server process ended before serving (exit ${code ?? signal}); stopping`);
      void stop(code && code > 0 ? code : 1);
      return;
    }
    listening--;
    say.note(`server process ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
    setTimeout(() => {
      if (!stopping) cluster.fork(env);
    }, 1000);
  });
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  for (let i = 0; i < workers; i++) cluster.fork(env);
}

/** A process of a `serve --workers` group: serves the port; its primary migrated the database and signs the log. */
async function serveWorker(config: Config): Promise<void> {
  const { openContext } = await import('../services/context.js');
  const { buildServer } = await import('./app.js');
  const { servicesOf } = await import('../services/index.js');
  const opened = await openContext(config, { migrate: false });
  const ctx = opened.store.capabilities.dialect === 'sqlite' ? appendThroughPrimary(opened) : opened;
  const app = await buildServer(ctx);
  const { authenticator } = servicesOf(ctx);
  authenticator.onChange(() => process.send?.({ athar: 'credentials-changed' } satisfies GroupMessage));
  process.on('message', (message: unknown) => {
    if (isGroupMessage(message)) authenticator.changedElsewhere();
  });
  await listen(app, ctx, config);
  // Ctrl-C reaches every process of the group: each one ends its requests and closes its database.
  stopOnSignals(async () => {
    await app.close();
    await ctx.close();
  });
}

/**
 * The context with appends sent to the primary, which commits them: SQLite takes one writer at a time, and two
 * processes committing audit rows side by side wait on each other's lock through the busy handler's coarse sleeps.
 */
function appendThroughPrimary(ctx: AppContext): AppContext {
  let nextId = 1;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  process.on('message', (message: unknown) => {
    if (!isAppendReply(message)) return;
    const w = waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id);
    if (message.error === undefined) w.resolve();
    else w.reject(new Error(`audit append failed in the primary: ${message.error}`));
  });
  const store: Store = {
    ...ctx.store,
    append: (statements) =>
      new Promise<void>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        const request: AppendRequest = {
          athar: 'append',
          id,
          statements: statements.map((s) => ({ sql: s.sql, parameters: [...s.parameters] })),
        };
        process.send?.(request, undefined, undefined, (error) => {
          if (!error) return;
          waiting.delete(id);
          reject(error);
        });
      }),
  };
  return { ...ctx, store, close: () => ctx.close() };
}

/** The tracing loop: the registry's match index built, then the queue taken as records arrive. */
async function startTracer(
  ctx: AppContext,
  onError: (error: unknown) => void,
): Promise<{ stop(): Promise<void> }> {
  const { servicesOf } = await import('../services/index.js');
  const services = servicesOf(ctx);
  services.tracing.tracer.start(onError);
  // Export files a stopped server was building are built again.
  await services.exports.resume().catch(onError);
  return services.tracing.tracer;
}

/**
 * Rate-limit counters and sign-in back-offs that can no longer limit anything are deleted every ten minutes, and
 * rate-limit keys of past days with them (issue 21, Security 3).
 */
async function startLimitPruning(
  ctx: AppContext,
  onError: (error: unknown) => void,
): Promise<{ stop(): Promise<void> }> {
  const { servicesOf } = await import('../services/index.js');
  const { startPruning } = await import('../services/limits/rate-limiter.js');
  return startPruning(servicesOf(ctx).intake.limiter, onError);
}

async function startSequencer(
  ctx: AppContext,
  onError: (error: unknown) => void,
): Promise<{ stop(): Promise<void> }> {
  const { openLedger } = await import('../services/ledger/setup.js');
  // The log's sequencer: staged entries are sequenced as they come, checkpoints signed at most every second.
  const { sequencer } = openLedger(ctx, { onError });
  sequencer.start();
  return sequencer;
}

type Served = {
  listen(options: { host: string; port: number }): Promise<unknown>;
  close(): Promise<unknown>;
};

/** Listens on the configured address; if it cannot, closes the server and the data and says why in one line. */
async function listen(app: Served, ctx: { close(): Promise<void> }, config: Config): Promise<void> {
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (error) {
    await app.close();
    await ctx.close();
    throw listenError(error, config);
  }
}

/** SIGINT or SIGTERM runs `stop` once, then ends the process. */
function stopOnSignals(stop: () => Promise<void>): void {
  const once = async () => {
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', once);
  process.once('SIGTERM', once);
}

function listenError(error: unknown, config: Config): unknown {
  const e = error as NodeJS.ErrnoException;
  const where = `${config.server.host}:${config.server.port}`;
  if (e.code === 'EADDRINUSE') {
    return new DomainError(
      'unavailable',
      `port ${where} is already in use (choose another with --port or ATHAR_PORT)`,
    );
  }
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') {
    return new DomainError('unavailable', `cannot listen on ${where}: ${e.code}`);
  }
  return error;
}

/**
 * The OCR job (docs/ocr.md): after each ingest, the new photos' cards are read as proposals, off the ingest's path.
 * Without tesseract the server says once that the reading of scanned registries is off and how to turn it on.
 */
async function startOcr(
  ctx: AppContext,
  onError: (error: unknown) => void,
): Promise<{ stop(): Promise<void> }> {
  const { servicesOf } = await import('../services/index.js');
  const ocr = servicesOf(ctx).ocr;
  const off = ocr.offReason();
  if (off) say.note(`${off} (card numbers are still read, by athar's own reader)`);
  ocr.loop.start(onError);
  return ocr.loop;
}
