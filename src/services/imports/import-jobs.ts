/**
 * Imports started over HTTP run in the background of the server process; their progress is kept in the imports
 * table so any request (or another server process) can read it. A server stopped mid-import leaves the row
 * "running" with the batches committed so far; re-sending the file finishes it (imports are idempotent).
 */
import { DomainError } from '../../domain/errors.js';
import { decodeText, EncodingError, type TextEncoding } from '../../exchange/text-decode.js';
import { newId } from '../../ids.js';
import { ImportRepository } from '../../store/repositories/imports.js';
import type { ImportTable } from '../../store/schema.js';
import { CsvError } from '../batch/person-csv.js';
import type { AppContext } from '../context.js';
import { countCsvRows, type ImportOptions, importRecords } from './record-import.js';

const storedErrorLimit = 1000;

export class ImportService {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly ctx: AppContext) {}

  /**
   * Starts an import of a CSV in the background; its row answers progress until it ends. Bytes are decoded first
   * (UTF-8, UTF-16 or Windows-1256, detected or given): a file that is not text — undeclared encodings, random
   * bytes, NUL bytes — is refused naming the file, line and byte offset, before anything is written.
   */
  async start(
    input: string | Uint8Array,
    options: Omit<ImportOptions, 'onProgress'> & { encoding?: TextEncoding },
  ): Promise<{ id: string; done: Promise<void> }> {
    const { encoding, ...importOptions } = options;
    let text: string;
    if (typeof input === 'string') text = input;
    else {
      try {
        text = decodeText(input, options.fileName, encoding).text;
      } catch (error) {
        if (error instanceof EncodingError) throw new DomainError('invalid', error.message);
        throw error;
      }
    }
    return this.startText(text, importOptions);
  }

  private async startText(
    text: string,
    options: Omit<ImportOptions, 'onProgress'>,
  ): Promise<{ id: string; done: Promise<void> }> {
    const { store } = this.ctx;
    const clock = () => this.ctx.clock();
    const running = this.running;
    const id = newId();
    const repo = new ImportRepository(store.db);
    const total = countCsvRows(text);
    const row: ImportTable = {
      id,
      status: 'running',
      kind: options.kind,
      source_name: options.sourceName ?? null,
      file_name: options.fileName,
      dry_run: options.dryRun ? 1 : 0,
      total,
      done: 0,
      created: 0,
      skipped: 0,
      errors: '[]',
      error_count: 0,
      failure: null,
      created_at: new Date(clock()).toISOString(),
      created_by: options.actor,
      finished_at: null,
    };
    await repo.create(row);
    const work = (async () => {
      try {
        const report = await importRecords(store, [text], {
          ...options,
          importId: id,
          total,
          onProgress: (p) =>
            repo.update(id, {
              total: p.total,
              done: p.done,
              created: p.created,
              skipped: p.skipped,
              error_count: p.errors.length,
              errors: JSON.stringify(p.errors.slice(0, storedErrorLimit)),
            }),
        });
        await repo.update(id, {
          status: 'finished',
          total: report.total,
          done: report.done,
          created: report.created,
          skipped: report.skipped,
          error_count: report.errors.length,
          errors: JSON.stringify(report.errors.slice(0, storedErrorLimit)),
          finished_at: new Date(clock()).toISOString(),
        });
      } catch (error) {
        await repo
          .update(id, {
            status: 'failed',
            failure: error instanceof CsvError ? error.message : 'the import stopped on an internal error',
            finished_at: new Date(clock()).toISOString(),
          })
          .catch(() => {});
      }
    })();
    running.add(work);
    void work.finally(() => running.delete(work));
    return { id, done: work };
  }

  /** Waits for the imports this process runs (a server closing, a test ending). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** Imports, newest first, `limit` from before the import `before`. */
  page(before: string | undefined, limit: number): Promise<ImportTable[]> {
    return new ImportRepository(this.ctx.store.db).page(before, limit);
  }

  get(id: string): Promise<ImportTable | undefined> {
    return new ImportRepository(this.ctx.store.db).get(id);
  }
}
