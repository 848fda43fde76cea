/**
 * Importing a person-record CSV (design.md) into the registry: every row validated, every bad value reported with
 * file, row and field; good rows written in batches, each batch one transaction (records, name keys, log entries),
 * so nothing is half-written. A dry run writes nothing. A re-run of the same file skips what is already there, by
 * (source, external id): the record_id column, or the row number. docs/import.md.
 */
import { sql } from 'kysely';
import {
  type PersonRecordColumn,
  type PersonRecordFields,
  personRecordColumns,
  type RecordKind,
} from '../../domain/person-record.js';
import type { SourceKind } from '../../domain/registry.js';
import { nextTurn } from '../../event-loop.js';
import { PlaceRepository } from '../../store/repositories/places.js';
import { RecordRepository } from '../../store/repositories/records.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import type { RecordNameKeyTable, RecordTable } from '../../store/schema.js';
import type { Db, Store } from '../../store/store.js';
import { CsvError, CsvRowSplitter } from '../batch/person-csv.js';
import { storeNewRecords } from '../registry/new-records.js';
import { prepareRecord, withStoredAliases } from '../registry/record-fields.js';
import { recordRow } from '../registry/registry.js';
import { tracingQueued } from '../tracing/signal.js';

/** A MAP.json: which person-record column each of the file's own headers holds. */
export interface ColumnMap {
  columns: Record<string, PersonRecordColumn>;
}

export interface ImportIssue {
  file: string;
  /** 1-based data row. */
  row: number;
  /** 1-based line in the file where the row starts. */
  line: number;
  field: string;
  message: string;
}

export interface ImportOptions {
  kind: RecordKind;
  /** Every row's source; otherwise the row's source column, otherwise the file's name. */
  sourceName?: string | null;
  map?: ColumnMap | null;
  dryRun?: boolean;
  actor: string | null;
  /** The file's name, for messages and as the default source. */
  fileName: string;
  batchSize?: number;
  /** The import (HTTP) this is, so its records' linking shows as its progress. */
  importId?: string | null;
  onProgress?: (progress: ImportProgress) => void | Promise<void>;
  /** Rows already split (a spreadsheet, a PFIF document: src/services/exchange/import-source.ts), read instead of CSV text. */
  rows?: AsyncIterable<ImportRowItem> | Iterable<ImportRowItem>;
}

export interface ImportProgress {
  total: number;
  done: number;
  created: number;
  skipped: number;
  errors: ImportIssue[];
}

export interface ImportReport extends ImportProgress {
  file: string;
  dryRun: boolean;
  /** Rows that passed validation (created, or already present, or — in a dry run — would be created). */
  valid: number;
  rejected: number;
  warnings: ImportIssue[];
  ignoredColumns: string[];
}

const known = new Set<string>(personRecordColumns);

const sourceKindOf: Record<RecordKind, SourceKind> = {
  family_report: 'family',
  registry_line: 'registry',
  death_notice: 'document',
  diaspora_list: 'list',
  evidence_card: 'document',
  other: 'other',
};

/** Checks a MAP.json's shape; the message names what is wrong. */
export function parseColumnMap(value: unknown): ColumnMap {
  const columns = (value as { columns?: unknown } | null)?.columns;
  if (!columns || typeof columns !== 'object' || Array.isArray(columns)) {
    throw new CsvError('the map must be a JSON object { "columns": { "<header in the file>": "<column>" } }');
  }
  for (const [header, column] of Object.entries(columns)) {
    if (typeof column !== 'string' || !known.has(column)) {
      throw new CsvError(
        `the map sends header ${JSON.stringify(header)} to ${JSON.stringify(column)}, which is not one of ${personRecordColumns.join(', ')}`,
      );
    }
  }
  return { columns: columns as Record<string, PersonRecordColumn> };
}

interface Row {
  row: number;
  line: number;
  cells: string[];
}

/** The header first, then data rows: what a row source hands the import. */
export type ImportRowItem = Row | { header: string[] };

/** Rows of CSV text given in chunks: the header first, then data rows (blank lines skipped). */
async function* csvRows(
  file: string,
  chunks: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<Row | { header: string[] }> {
  const splitter = new CsvRowSplitter(file);
  let header = false;
  let row = 0;
  const pending: (Row | { header: string[] })[] = [];
  const onRow = (cells: string[], line: number) => {
    if (!header) {
      header = true;
      if (cells.length > 0) cells[0] = (cells[0] as string).replace(/^\ufeff/, '');
      pending.push({ header: cells });
      return;
    }
    if (cells.length === 1 && cells[0] === '') return;
    row++;
    pending.push({ row, line, cells });
  };
  for await (const chunk of chunks) {
    splitter.push(chunk, onRow);
    yield* pending.splice(0);
  }
  splitter.end(onRow);
  yield* pending.splice(0);
}

/** Counts a CSV text's data rows (for progress), honouring quoted line breaks. */
export function countCsvRows(text: string): number {
  let n = -1;
  const splitter = new CsvRowSplitter('count');
  const onRow = (cells: string[]) => {
    if (!(cells.length === 1 && cells[0] === '')) n++;
  };
  try {
    splitter.push(text, onRow);
    splitter.end(onRow);
  } catch {
    // The real read reports the problem.
  }
  return Math.max(0, n);
}

interface Pending {
  row: number;
  line: number;
  externalId: string;
  source: string;
  record: RecordTable;
  keys: RecordNameKeyTable[];
}

/** Imports CSV text (given in chunks). Throws CsvError for a file that cannot be read as CSV at all. */
export async function importRecords(
  store: Store,
  chunks: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions & { total?: number },
): Promise<ImportReport> {
  const file = options.fileName;
  const batchSize = options.batchSize ?? 500;
  const dryRun = options.dryRun === true;
  const report: ImportReport = {
    file,
    dryRun,
    total: options.total ?? 0,
    done: 0,
    valid: 0,
    created: 0,
    skipped: 0,
    rejected: 0,
    errors: [],
    warnings: [],
    ignoredColumns: [],
  };
  let columns: (PersonRecordColumn | undefined)[] | undefined;
  const seenIds = new Map<string, number>();
  const sourceIds = new Map<string, string | undefined>();
  let batch: Pending[] = [];
  const at = new Date().toISOString();
  // Aliases users added in the gazetteer screen resolve here as the gazetteer's own do.
  const places = withStoredAliases(await new PlaceRepository(store.db).aliasKeys());

  const sourceId = async (name: string): Promise<string | undefined> => {
    if (sourceIds.has(name)) return sourceIds.get(name);
    const repo = new SourceRepository(store.db);
    const id = dryRun
      ? (await repo.findByName(name))?.id
      : (await repo.findOrCreate(name, sourceKindOf[options.kind], options.actor)).id;
    sourceIds.set(name, id);
    return id;
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const bySource = new Map<string, Pending[]>();
    for (const p of rows) bySource.set(p.source, [...(bySource.get(p.source) ?? []), p]);
    const named = new Map<string, string | undefined>();
    for (const name of bySource.keys()) named.set(name, await sourceId(name));
    // What is already there is read inside the writing transaction, under the write lock (SQLite's, or an
    // advisory lock per source on PostgreSQL): two imports of one file at once then skip each other's rows
    // instead of one failing on the unique (source, external id) index (issue 21, Reliability 4).
    const choose = async (db: Db): Promise<Pending[]> => {
      const fresh: Pending[] = [];
      for (const [name, list] of bySource) {
        const id = named.get(name);
        if (!id) {
          fresh.push(...list);
          continue;
        }
        if (!dryRun && store.capabilities.advisoryLocks)
          await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '/athar.import/' || ${id}))`.execute(
            db,
          );
        const present = await new RecordRepository(db, store.capabilities).existingExternalIds(
          id,
          list.map((p) => p.externalId),
        );
        for (const p of list) {
          if (!present.has(p.externalId)) {
            p.record.source_id = id;
            fresh.push(p);
          }
        }
      }
      return fresh;
    };
    let fresh: Pending[];
    if (dryRun) fresh = await choose(store.db);
    else {
      fresh = await store.transaction(async (trx) => {
        const chosen = await choose(trx);
        if (chosen.length > 0)
          await storeNewRecords(
            trx,
            store.capabilities,
            chosen.map((p) => p.record),
            chosen.flatMap((p) => p.keys),
            {
              logKind: 'record.imported',
              at,
              by: options.actor,
              importId: options.importId ?? null,
              stagedAt: at,
            },
          );
        return chosen;
      });
      if (fresh.length > 0) tracingQueued(store);
    }
    report.skipped += rows.length - fresh.length;
    report.created += fresh.length;
    report.done += rows.length;
    await options.onProgress?.(progressOf(report));
    await nextTurn();
  };

  let sinceYield = 0;
  for await (const item of options.rows ?? csvRows(file, chunks)) {
    if (++sinceYield >= yieldEvery) {
      sinceYield = 0;
      await nextTurn();
    }
    if ('header' in item) {
      const seen = new Set<string>();
      columns = item.header.map((raw) => {
        const h = raw.trim();
        const column =
          options.map?.columns[h] ??
          (known.has(h.toLowerCase()) ? (h.toLowerCase() as PersonRecordColumn) : undefined);
        if (!column) {
          if (h !== '') report.ignoredColumns.push(h);
          return undefined;
        }
        if (seen.has(column)) throw new CsvError(`${file} line 1: column ${column} appears twice`);
        seen.add(column);
        return column;
      });
      continue;
    }
    if (!columns) continue;
    const reject = (field: string, message: string) =>
      report.errors.push({ file, row: item.row, line: item.line, field, message });
    if (item.cells.length > columns.length) {
      reject('record', `${item.cells.length} fields, but the header names ${columns.length}`);
      report.rejected++;
      report.done++;
      continue;
    }
    const fields: PersonRecordFields = {};
    item.cells.forEach((value, c) => {
      const column = (columns as (PersonRecordColumn | undefined)[])[c];
      if (column && value.trim() !== '') fields[column] = value;
    });
    const externalId = fields.record_id?.trim() || String(item.row);
    const source = options.sourceName?.trim() || fields.source?.trim() || file;
    const idKey = `${source}\u0000${externalId}`;
    const earlier = seenIds.get(idKey);
    if (earlier !== undefined) {
      reject('record_id', `${JSON.stringify(externalId)} was already used by row ${earlier} of this file`);
      report.rejected++;
      report.done++;
      continue;
    }
    seenIds.set(idKey, item.row);
    const prepared = prepareRecord(fields, places);
    if (!prepared.ok) {
      for (const e of prepared.errors) reject(e.field, e.message);
      report.rejected++;
      report.done++;
      continue;
    }
    for (const w of prepared.warnings) {
      report.warnings.push({ file, row: item.row, line: item.line, field: w.field, message: w.message });
    }
    report.valid++;
    const made = recordRow(
      { sourceId: '', kind: options.kind, externalId, fields },
      prepared,
      at,
      options.actor,
    );
    batch.push({ row: item.row, line: item.line, externalId, source, record: made.row, keys: made.keys });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  if (!dryRun && report.created >= 1000)
    await new RecordRepository(store.db, store.capabilities).refreshStatistics();
  if (report.total < report.done) report.total = report.done;
  await options.onProgress?.(progressOf(report));
  return report;
}

/**
 * On SQLite every query finishes synchronously, so an import's awaits resolve as microtasks and the server would
 * answer nothing (not even /healthz) until the whole file was in: the import gives the event loop a turn between
 * batches and every few hundred rows read (issue 21, Reliability 5; docs/decisions.md).
 */
const yieldEvery = 200;

function progressOf(r: ImportReport): ImportProgress {
  return { total: r.total, done: r.done, created: r.created, skipped: r.skipped, errors: r.errors };
}
