import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { type ConsentPurpose, consentPurposes, currentConsent } from '../../domain/consent.js';
import {
  type ExportEncoder,
  type ExportFormat,
  type ExportKind,
  type ExportMeta,
  type ExportRow,
  encoderFor,
  pfifNoteOf,
} from '../../exchange/export-formats.js';
import type { PfifNote } from '../../exchange/pfif.js';
import { nowIso } from '../../ids.js';
import type { RecordTable } from '../../store/schema.js';
import { slices } from '../../store/slices.js';
import type { Db, Store } from '../../store/store.js';
import { startWorker } from '../../worker-entry.js';
import type { AppContext } from '../context.js';
import type { ExportJob, ExportMessage, ExportRange } from './export-worker.js';
import { claimsAbout, type ExportSpan, encodeRecordPage, type RecordPageContext } from './record-pages.js';

/**
 * `athar export`: records, persons or evidence metadata to CSV, JSON or PFIF 1.4, streamed page by page (keyset
 * pages on the primary key, so a million rows cost a million rows, not a million offsets). A family report's
 * record goes out only when the report's latest consent choice for the export's purpose is yes; without a purpose
 * no family report goes out. Contact details are never read. The file is written under a temporary name and
 * renamed when complete, owner-only.
 */

export interface ExportRequest {
  kind: ExportKind;
  format: ExportFormat;
  out: string;
  purpose?: ConsentPurpose | null;
  pageSize?: number;
  /**
   * Threads that read and encode a records export's id ranges side by side (default: one per core, up to 4, for
   * exports of 50,000 records or more; 1: this thread alone). The file is the same either way.
   */
  workers?: number;
}

export interface ExportReport {
  kind: ExportKind;
  format: ExportFormat;
  out: string;
  purpose: string | null;
  exported: number;
  /** Family-report records (or persons with nothing else) left out for consent. */
  withheld: number;
  bytes: number;
  ms: number;
}

export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}

/** Buffered writes with back-pressure: text in writes of a MiB or more, a worker's encoded pages as they come. */
class TextSink {
  private readonly stream: fs.WriteStream;
  private parts: string[] = [];
  private size = 0;
  bytes = 0;
  private failure: Error | undefined;
  constructor(file: string) {
    // Up to 16 MiB queued before waiting: the disk writes while the next pages are read and encoded.
    this.stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600, highWaterMark: 16 << 20 });
    this.stream.on('error', (e) => {
      this.failure = e;
    });
  }
  private items = 0;
  /** Items, each preceded by the encoder's separator; the file's first item loses it. */
  async pushItems(text: string, separator: string): Promise<void> {
    if (text === '') return;
    await this.push(this.items++ === 0 && separator !== '' ? text.slice(separator.length) : text);
  }
  /** Items already encoded (a worker thread's page, UTF-8, each item preceded by an ASCII separator). */
  async pushItemBytes(bytes: Uint8Array, separator: string): Promise<void> {
    if (bytes.length === 0) return;
    const chunk = this.items++ === 0 && separator !== '' ? bytes.subarray(separator.length) : bytes;
    await this.flush();
    await this.write(chunk);
  }
  async push(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const chunk = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    await this.write(chunk);
  }
  private async write(chunk: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
  async close(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    await new Promise<void>((resolve, reject) =>
      this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())),
    );
    if (this.failure) throw this.failure;
  }
  destroy(): void {
    this.stream.destroy();
  }
}

/** The family-report records whose consent covers `purpose` now (latest choice per report, as consent.ts says). */
export async function consentingRecords(db: Db, purpose: string | null): Promise<Set<string>> {
  if (!purpose) return new Set();
  const reports = await db.selectFrom('family_reports').select(['id', 'record_id']).execute();
  const choices = await db.selectFrom('report_consents').selectAll().where('purpose', '=', purpose).execute();
  const byReport = new Map<string, typeof choices>();
  for (const c of choices) byReport.set(c.report_id, [...(byReport.get(c.report_id) ?? []), c]);
  const out = new Set<string>();
  for (const r of reports) {
    const history = (byReport.get(r.id) ?? []).map((c) => ({
      id: c.id,
      purpose: c.purpose,
      granted: c.granted === 1,
      recordedAt: c.recorded_at,
      recordedBy: c.recorded_by,
    }));
    if (currentConsent(history)[purpose as ConsentPurpose]) out.add(r.record_id);
  }
  return out;
}

async function placeNames(
  db: Db,
): Promise<{ governorate: Map<string, string>; branch: Map<string, string> }> {
  const g = await db.selectFrom('governorates').select(['id', 'name_en']).execute();
  const b = await db.selectFrom('branches').select(['id', 'name_en']).execute();
  return {
    governorate: new Map(g.map((r) => [r.id, r.name_en])),
    branch: new Map(b.map((r) => [r.id, r.name_en])),
  };
}

type RecordRow = RecordTable & { person_id: string };

async function sourceNames(db: Db): Promise<Map<string, string>> {
  return new Map(
    (await db.selectFrom('sources').select(['id', 'name']).execute()).map((r) => [r.id, r.name]),
  );
}

/** A person's record as an export row (the persons export; records go through record-pages.ts). */
function recordExportRow(
  r: RecordRow,
  places: Awaited<ReturnType<typeof placeNames>>,
  sources: Map<string, string>,
): ExportRow {
  return {
    record_id: r.id,
    source: sources.get(r.source_id) ?? r.source_id,
    full_name: r.full_name,
    first_name: r.first_name,
    father_name: r.father_name,
    grandfather_name: r.grandfather_name,
    family_name: r.family_name,
    mother_name: r.mother_name,
    sex: r.sex,
    birth_date: r.birth_date,
    birth_year: r.birth_year,
    governorate: r.governorate_id ? (places.governorate.get(r.governorate_id) ?? r.governorate_id) : null,
    place_of_origin: r.place_of_origin,
    arrest_date: r.arrest_date,
    arresting_branch: r.arresting_branch_id
      ? (places.branch.get(r.arresting_branch_id) ?? r.arresting_branch_id)
      : null,
    detainee_number: r.detainee_number,
    death_date: r.death_date,
    forensic_report_number: r.forensic_report_number,
    notes: r.notes,
    kind: r.kind,
    external_id: r.external_id,
    person_id: r.person_id,
    created_at: r.created_at,
  };
}

/** Records below this many are exported by this thread: starting threads costs more than it saves. */
const parallelFrom = 50_000;

function defaultWorkers(): number {
  return Math.min(4, os.availableParallelism());
}

/**
 * The id ranges a records export is cut into: one when it stays on this thread, else a few per worker (so that a
 * slow range does not leave the other threads idle), cut at every n-th id. Fewer than `least` records (or two
 * pages) stay in one range.
 */
async function recordRanges(
  store: Store,
  workers: number,
  pageSize: number,
  least: number,
): Promise<ExportSpan[]> {
  const whole: ExportSpan[] = [{ from: null, before: null }];
  if (workers <= 1) return whole;
  const counted = await store.db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(counted.n);
  if (n < Math.max(least, pageSize * 2)) return whole;
  const parts = Math.min(workers * 4, Math.floor(n / pageSize));
  const cuts: string[] = [];
  for (let k = 1; k < parts; k++) {
    const at = await store.db
      .selectFrom('records')
      .select('id')
      .orderBy('id')
      .limit(1)
      .offset(Math.floor((k * n) / parts))
      .executeTakeFirst();
    // Offsets grow, ids are unique: each cut is above the last (in the database's own order of ids).
    if (at) cuts.push(at.id);
  }
  // Range 0 starts at the first id; range k at cut k (inclusive) and ends before the next cut.
  return [null, ...cuts].map((from, k) => ({ from, before: cuts[k] ?? null }));
}

interface Counts {
  exported: number;
  withheld: number;
}

async function encodeHere(
  store: Store,
  encoder: ExportEncoder,
  context: RecordPageContext,
  pageSize: number,
  sink: TextSink,
): Promise<Counts> {
  const counts = { exported: 0, withheld: 0 };
  for (let after = ''; ; ) {
    const page = await encodeRecordPage(store, encoder, context, { after }, pageSize);
    if (page.read === 0) break;
    counts.exported += page.exported;
    counts.withheld += page.withheld;
    await sink.pushItems(page.text, encoder.separator);
    after = page.last;
    if (page.read < pageSize) break;
  }
  return counts;
}

/**
 * Worker threads encode the ranges (export-worker.ts), each range page by page; this thread writes the pages of
 * range 0, then range 1, …, holding only the pages of ranges that finished ahead of their turn.
 */
async function encodeInWorkers(
  store: Store,
  request: ExportRequest,
  encoder: ExportEncoder,
  context: RecordPageContext,
  ranges: ExportSpan[],
  pageSize: number,
  sink: TextSink,
  meta: ExportMeta,
): Promise<Counts> {
  const job: ExportJob = {
    database: store.database,
    format: request.format,
    meta,
    pageSize,
    context: {
      domain: context.domain,
      pfif: context.pfif,
      chunk: context.chunk,
      allowed: [...context.allowed],
      governorates: [...context.governorates],
      branches: [...context.branches],
      sources: [...context.sources],
    },
  };
  const state = ranges.map(() => ({ pages: [] as Uint8Array[], done: false }));
  const counts = { exported: 0, withheld: 0 };
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let next = 0;
  const give = (worker: Worker) => {
    if (next >= ranges.length) return;
    const range = ranges[next] as ExportSpan;
    worker.postMessage({ range: next++, ...range } satisfies ExportRange);
  };
  const workers = Array.from({ length: Math.min(request.workers ?? defaultWorkers(), ranges.length) }, () => {
    const worker = startWorker(import.meta.url, 'export-worker', {
      workerData: job,
      // A page's rows (5,000 × 22 strings) outlive a small young generation and were copied into the old one:
      // 64 MiB keeps them young (a 1M-record CSV export 16.6 → 15.0 CPU-s).
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
    });
    worker.on('message', (m: ExportMessage) => {
      if ('error' in m) failure = new ExportError(`an export thread failed: ${m.error}`);
      else if ('done' in m) {
        (state[m.range] as { done: boolean }).done = true;
        give(worker);
      } else {
        state[m.range]?.pages.push(m.bytes);
        counts.exported += m.exported;
        counts.withheld += m.withheld;
      }
      notify();
    });
    worker.on('error', (e) => {
      failure = e;
      notify();
    });
    worker.on('exit', (code) => {
      if (code !== 0 && !failure) failure = new ExportError(`an export thread stopped (exit ${code})`);
      notify();
    });
    give(worker);
    return worker;
  });
  try {
    for (let current = 0; current < ranges.length; ) {
      if (failure) throw failure;
      const s = state[current] as { pages: Uint8Array[]; done: boolean };
      const page = s.pages.shift();
      if (page !== undefined) await sink.pushItemBytes(page, encoder.separator);
      else if (s.done) current++;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    for (const worker of workers) {
      worker.removeAllListeners('exit');
      void worker.terminate();
    }
  }
  return counts;
}

export async function exportData(ctx: AppContext, request: ExportRequest): Promise<ExportReport> {
  const start = performance.now();
  const purpose = request.purpose ?? null;
  if (purpose && !(consentPurposes as readonly string[]).includes(purpose)) {
    throw new ExportError(`purpose must be one of ${consentPurposes.join(', ')}`);
  }
  const db = ctx.store.db;
  const exportedAt = nowIso(ctx.clock);
  const domain =
    (await db.selectFrom('meta').select('value').where('key', '=', 'ledger.vkey').executeTakeFirst())?.value
      .split('/')[0]
      ?.split('+')[0] ?? 'athar.localhost';
  const meta: ExportMeta = {
    kind: request.kind,
    exportedAt,
    purpose,
    domain,
    exactRows: request.kind === 'records',
  };
  const encoder: ExportEncoder = (() => {
    try {
      return encoderFor(request.format, meta);
    } catch (error) {
      throw new ExportError((error as Error).message);
    }
  })();
  const out = path.resolve(request.out);
  if (fs.existsSync(out))
    throw new ExportError(`${request.out} exists already: an export never writes over a file`);
  const partial = `${out}.partial`;
  await fsp.mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
  const sink = new TextSink(partial);
  const pageSize = request.pageSize ?? 5000;
  const chunk = Math.floor(ctx.store.capabilities.maxParameters / 2);
  let exported = 0;
  let withheld = 0;
  try {
    const allowed = await consentingRecords(db, purpose);
    const places = await placeNames(db);
    const sources = await sourceNames(db);
    await sink.push(encoder.head());
    if (request.kind === 'records') {
      const context: RecordPageContext = {
        allowed,
        governorates: places.governorate,
        branches: places.branch,
        sources,
        domain,
        pfif: request.format === 'pfif',
        chunk,
      };
      const ranges = await recordRanges(
        ctx.store,
        request.workers ?? defaultWorkers(),
        pageSize,
        request.workers === undefined ? parallelFrom : 0,
      );
      const counts =
        ranges.length > 1
          ? await encodeInWorkers(ctx.store, request, encoder, context, ranges, pageSize, sink, meta)
          : await encodeHere(ctx.store, encoder, context, pageSize, sink);
      exported += counts.exported;
      withheld += counts.withheld;
    } else if (request.kind === 'persons') {
      for (let after = ''; ; ) {
        const persons = await db
          .selectFrom('persons')
          .select(['id', 'created_at'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(pageSize)
          .execute();
        if (persons.length === 0) break;
        after = (persons.at(-1) as { id: string }).id;
        const ids = persons.map((p) => p.id);
        const linked = new Map<string, RecordRow[]>();
        for (const part of slices(ids, chunk)) {
          const rows = await db
            .selectFrom('record_links as l')
            .innerJoin('records as r', 'r.id', 'l.record_id')
            .selectAll('r')
            .select(['l.person_id', 'l.linked_at'])
            .where('l.person_id', 'in', part)
            .where('l.unlinked_at', 'is', null)
            .orderBy('l.linked_at')
            .orderBy('r.id')
            .execute();
          for (const r of rows)
            linked.set(r.person_id, [...(linked.get(r.person_id) ?? []), r as unknown as RecordRow]);
        }
        const claims = request.format === 'pfif' ? await claimsAbout(db, 'person_id', ids, chunk) : undefined;
        const recordClaims =
          request.format === 'pfif'
            ? await claimsAbout(
                db,
                'record_id',
                [...linked.values()].flat().map((r) => r.id),
                chunk,
              )
            : undefined;
        let text = '';
        for (const p of persons) {
          const all = linked.get(p.id) ?? [];
          const records = all.filter((r) => r.kind !== 'family_report' || allowed.has(r.id));
          withheld += all.length - records.length;
          if (records.length === 0) continue;
          const first = recordExportRow(records[0] as RecordRow, places, sources);
          const names = [
            ...new Set(
              records.map((r) => r.full_name).filter((n): n is string => !!n && n !== first.full_name),
            ),
          ];
          const row: ExportRow = {
            ...first,
            person_id: p.id,
            created_at: p.created_at,
            record_count: records.length,
            record_ids: records.map((r) => r.id).join(' '),
            alternate_names: names.join('\n'),
          };
          let notes: PfifNote[] | undefined;
          if (claims && recordClaims) {
            const pid = `${domain}/person.${p.id}`;
            notes = [
              ...(claims.get(p.id) ?? []),
              ...records.flatMap((r) => recordClaims.get(r.id) ?? []),
            ].flatMap((c) => pfifNoteOf(domain, c, pid) ?? []);
          }
          text += encoder.separator + encoder.item(row, notes);
          exported++;
        }
        await sink.pushItems(text, encoder.separator);
        if (persons.length < pageSize) break;
      }
    } else {
      for (let after = ''; ; ) {
        const page = await db
          .selectFrom('evidence_items as e')
          .select([
            'e.id',
            'e.sha256',
            'e.size_bytes',
            'e.media_type',
            'e.original_name',
            'e.width',
            'e.height',
            'e.pdq',
            'e.pdq_quality',
            'e.graphic',
            'e.decode_status',
            'e.source_id',
            'e.ingest_run_id',
            'e.created_at',
          ])
          .where('e.id', '>', after)
          .orderBy('e.id')
          .limit(pageSize)
          .execute();
        if (page.length === 0) break;
        after = (page.at(-1) as { id: string }).id;
        let text = '';
        for (const e of page)
          text +=
            encoder.separator +
            encoder.item({
              ...e,
              source: e.source_id ? (sources.get(e.source_id) ?? e.source_id) : null,
            });
        exported += page.length;
        await sink.pushItems(text, encoder.separator);
        if (page.length < pageSize) break;
      }
    }
    await sink.push(encoder.tail());
    await sink.close();
    await fsp.rename(partial, out);
  } catch (error) {
    sink.destroy();
    await fsp.rm(partial, { force: true });
    throw error;
  }
  return {
    kind: request.kind,
    format: request.format,
    out,
    purpose,
    exported,
    withheld,
    bytes: sink.bytes,
    ms: Math.round(performance.now() - start),
  };
}
