import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config/config.js';
import type { LinkageModel } from '../../linkage/model.js';
import { openStore } from '../../store/store.js';
import { type RegistryLinkSummary, runRegistryLink } from './registry-link.js';

/** What the tracing loop sends its registry-wide run. */
export interface RegistryLinkJob {
  database: Config['database'];
  model: LinkageModel;
  waitMs: number;
}

export type RegistryLinkReply = { ok: true; summary: RegistryLinkSummary } | { ok: false; message: string };

/**
 * The tracing loop's registry-wide run, on a thread of its own with its own connection to the same database: its
 * blocking, scoring and clustering take seconds of computing that would otherwise hold the server's event loop
 * (issue 21, Reliability 5). It writes as `athar registry link` does from another process.
 */
const job = workerData as RegistryLinkJob;
const store = await openStore(job.database, { migrate: false });
let reply: RegistryLinkReply;
try {
  reply = { ok: true, summary: await runRegistryLink(store, { model: job.model, waitMs: job.waitMs }) };
} catch (error) {
  reply = { ok: false, message: (error as Error).message };
} finally {
  await store.close();
}
parentPort?.postMessage(reply);
