/**
 * A worker thread of a records export: opens the database read-only and encodes the id ranges the main thread
 * hands it, page by page, posting each page's text; the main thread writes the ranges in order (export.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config/config.js';
import { type ExportFormat, type ExportMeta, encoderFor } from '../../exchange/export-formats.js';
import { openStore } from '../../store/store.js';
import { type ExportSpan, encodeRecordPage, type RecordPageContext } from './record-pages.js';

export interface ExportJob {
  database: Config['database'];
  format: ExportFormat;
  meta: ExportMeta;
  pageSize: number;
  context: Omit<RecordPageContext, 'allowed' | 'governorates' | 'branches' | 'sources'> & {
    allowed: string[];
    governorates: [string, string][];
    branches: [string, string][];
    sources: [string, string][];
  };
}

/** The `range`-th span of record ids. */
export interface ExportRange extends ExportSpan {
  range: number;
}

export type ExportMessage =
  | { range: number; bytes: Uint8Array; exported: number; withheld: number }
  | { range: number; done: true }
  | { error: string };

const job = workerData as ExportJob;
const port = parentPort;
if (!port) throw new Error('export-worker runs as a worker thread');
const store = await openStore(job.database, { migrate: false, readOnly: true });
const encoder = encoderFor(job.format, job.meta);
const utf8 = new TextEncoder();
const context: RecordPageContext = {
  ...job.context,
  allowed: new Set(job.context.allowed),
  governorates: new Map(job.context.governorates),
  branches: new Map(job.context.branches),
  sources: new Map(job.context.sources),
};

port.on('message', (task: ExportRange | 'close') => {
  if (task === 'close') {
    void store.close().finally(() => port.close());
    return;
  }
  void (async () => {
    try {
      for (let after: string | null = null; ; ) {
        const start =
          after === null ? { from: task.from, before: task.before } : { after, before: task.before };
        const page = await encodeRecordPage(store, encoder, context, start, job.pageSize);
        if (page.read === 0) break;
        // Encoded here and handed over (transferred, not copied): the main thread only writes.
        const bytes = utf8.encode(page.text);
        port.postMessage(
          {
            range: task.range,
            bytes,
            exported: page.exported,
            withheld: page.withheld,
          } satisfies ExportMessage,
          [bytes.buffer],
        );
        after = page.last;
        if (page.read < job.pageSize) break;
      }
      port.postMessage({ range: task.range, done: true } satisfies ExportMessage);
    } catch (error) {
      port.postMessage({ error: (error as Error).message } satisfies ExportMessage);
    }
  })();
});
