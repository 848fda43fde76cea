import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Caller, SignedIn } from '../../access/caller.js';
import { readAll } from '../../blobs/fs-blob-store.js';
import { DomainError } from '../../domain/errors.js';
import type { PersonRecordFields } from '../../domain/person-record.js';
import { nowIso } from '../../ids.js';
import { type OcrEngine, OcrFailure } from '../../ocr/engine.js';
import { glyphTemplates } from '../../ocr/glyph-templates.js';
import { decodeTemplates, type Template } from '../../ocr/glyphs.js';
import {
  type DateColumn,
  missingRows,
  type PageRows,
  parseRegistryPage,
  type RowFields,
} from '../../ocr/registry-rows.js';
import { lexiconUserWords } from '../../ocr/user-words.js';
import { BodyRepository } from '../../store/repositories/bodies.js';
import type { EvidenceItem } from '../../store/repositories/evidence.js';
import {
  type NewRow,
  OcrRowRepository,
  type PageOutcome,
  type PageRead,
  type ScannedRow,
} from '../../store/repositories/ocr-rows.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import type { EvidenceCatalogue, ViewStream } from '../evidence/evidence.js';
import type { ItemResult, RegistryService } from '../registry/registry.js';
import type { SourceService } from '../registry/sources.js';
import { DocumentPages, isPdf, PagesFailure, pdfInstallHint } from './document-pages.js';
import type { OcrService } from './ocr.js';

/**
 * The row reader's name and version: with the engine's, recorded with every page read and row. A page read by the
 * same reader and engine versions is not read again; bump it with any change to src/ocr/registry-rows.ts that can
 * change a reading.
 */
export const rowReaderVersion = 'athar-rows/3';
/**
 * The engine's languages for pages: Arabic alone, for the names. Numbers and dates are read again by the glyph
 * classifier (readRegistryPage); `eng` cost twice the time and read Arabic-Indic digits no better.
 */
const pageLanguages = ['ara'] as const;
/**
 * Tesseract's settings for pages. Its noise-row rejection (`textord_noise_rejrows`) takes a ruled table's rows of
 * short words for noise and drops them, or the end of a name: off, no row of the development pages was lost and
 * the names' CER fell from 5.5% to 2.6% (docs/ocr.md).
 */
const pageSettings = { textord_noise_rejrows: '0' } as const;
let userWords: string | undefined;

/**
 * The names lexicon's words as a file for tesseract's `--user-words` (its own dictionaries stay loaded), written
 * once to the temporary folder under a name that is the list's hash (the same list, the same file). On the
 * development pages: names' CER 1.65% → 1.56%, listed names 1.06% → 0.87%, unlisted unchanged (2.20%).
 */
export function userWordsFile(): string {
  if (userWords && fs.existsSync(userWords)) return userWords;
  const text = `${lexiconUserWords().join('\n')}\n`;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = path.join(os.tmpdir(), `athar-user-words-${hash}.txt`);
  if (!fs.existsSync(file)) {
    // Written beside and renamed: another process reading at once never sees half a list.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, file);
  }
  userWords = file;
  return file;
}

/** A larger scan is shrunk to this long side before reading (300 dpi A4 is 3508). */
const maxPageSide = 3600;
let templates: Template[] | undefined;

/**
 * One page read into rows, as the service reads it (the bench measures this): shrunk and grey, its words read by
 * the engine, the rows rebuilt from them, and each row's cells beside the name read again with the card glyph
 * classifier on the same grey picture (docs/ocr.md, "Scanned registries").
 */
export async function readRegistryPage(
  engine: OcrEngine,
  bytes: Uint8Array,
  languages: readonly string[] = pageLanguages,
): Promise<{ parsed: PageRows; words: number; info: { width: number; height: number } }> {
  const grey = sharp(bytes, { failOn: 'error' })
    .rotate()
    .resize({ width: maxPageSide, height: maxPageSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .greyscale();
  const { data: raw, info } = await grey.clone().raw().toBuffer({ resolveWithObject: true });
  const page = {
    width: info.width,
    height: info.height,
    data: new Uint8Array(raw.buffer, raw.byteOffset, raw.length),
  };
  // What tesseract is given: the page's grey stretched to full contrast (1st to 99th percentile). A faded
  // photocopy's grey ink on grey paper lost most of its rows otherwise (worn development pages: names' CER 54% →
  // 40%; clean typed ones 1.56% → 1.43%). A median filter against toner specks cost clean pages ten times that.
  const raw3 = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const forEngine = await sharp(raw, raw3).normalise().greyscale().raw().toBuffer();
  const png = await sharp(forEngine, raw3).png({ compressionLevel: 1 }).toBuffer();
  const read = await engine.recognize({
    image: png,
    languages,
    segmentation: 'auto',
    settings: pageSettings,
    userWords: userWordsFile(),
    timeoutMs: 60_000,
  });
  templates ??= decodeTemplates(glyphTemplates);
  let parsed = parseRegistryPage(read.words, { page, templates });
  // A row the page's reading left out (its layout analysis drops a line of a ruled table now and then) shows as a
  // gap of two rows' pitch between neighbours: that band is read again as one line and the page parsed again.
  const bands = missingRows(parsed.rows);
  if (bands.length > 0) {
    const source = sharp(forEngine, raw3);
    const extra = await Promise.all(
      bands.map(async (b) => {
        const left = Math.max(0, Math.floor(b.x));
        const top = Math.max(0, Math.floor(b.y));
        const width = Math.min(info.width, Math.ceil(b.x + b.width)) - left;
        const height = Math.min(info.height, Math.ceil(b.y + b.height)) - top;
        if (width <= 0 || height <= 0) return [];
        const image = await source.clone().extract({ left, top, width, height }).png().toBuffer();
        const line = await engine.recognize({
          image,
          languages,
          segmentation: 'line',
          settings: pageSettings,
          userWords: userWordsFile(),
          timeoutMs: 10_000,
        });
        return line.words.map((w) => ({
          ...w,
          box: { ...w.box, x: w.box.x + left, y: w.box.y + top },
          line: `reread.${top}.${w.line}`,
        }));
      }),
    );
    parsed = parseRegistryPage([...read.words, ...extra.flat()], { page, templates });
  }
  return { parsed, words: read.words.length, info: { width: info.width, height: info.height } };
}

/** The page view's long side (the web shows it beside the rows). */
const pageViewSide = 1600;

export interface PageSummary {
  items: number;
  alreadyRead: number;
  /** Pages with rows proposed, and the rows. */
  proposed: number;
  /** Pages read in the items recorded (a PDF or multi-page TIFF counts each). */
  pages: number;
  rows: number;
  /** No rows: read but no line looked like a row; not an image; a body photo (labels from its card); failed. */
  noRows: number;
  notImage: number;
  bodyPhoto: number;
  /** The engine is off (not recorded: the page is read when it is on). */
  unavailable: number;
  failed: number;
  seconds: number;
  problems: { evidenceId: string; outcome: PageOutcome; reason: string }[];
}

export interface RowDecision {
  row: string;
  action: 'accept' | 'correct' | 'reject';
  /** For correct: the fields as the documenter reads them (each given replaces the machine's; '' clears it). */
  fields?: RowFields;
  /** Which date the row's date is, when the page's headings do not say (or say wrongly). */
  dateColumn?: DateColumn;
}

const recordColumns: Partial<Record<keyof RowFields, keyof PersonRecordFields>> = {
  fullName: 'full_name',
  firstName: 'first_name',
  fatherName: 'father_name',
  grandfatherName: 'grandfather_name',
  familyName: 'family_name',
  detaineeNumber: 'detainee_number',
};

/** The source a scan's records go to when the documenter names none. */
export function defaultSourceName(item: Pick<EvidenceItem, 'originalName' | 'sha256'>): string {
  return `Scan ${item.originalName ?? item.sha256.slice(0, 16)}`;
}

/**
 * Scanned registries (docs/ocr.md): a page is read when someone asks for it (`athar ocr --pages`, or the API) — the
 * card loop never reads scans as pages, and never reads as a card an item read as a page — into proposed rows;
 * a documenter accepts, corrects or rejects each, and accepted and corrected rows become records (registry_line)
 * of a source named for the document, each record's external id naming the item, page and row it came from.
 */
export class ScannedPages {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: {
      catalogue: EvidenceCatalogue;
      ocr: OcrService;
      registry: RegistryService;
      sources: SourceService;
      audit: AuditService;
      /** How an item's bytes become pages (the default finds pdftoppm on the PATH). */
      documents?: DocumentPages;
    },
  ) {
    this.documents = deps.documents ?? new DocumentPages();
  }

  private readonly documents: DocumentPages;

  /** The reader and engine versions pages are read with now, or null when the engine is off. */
  engineVersion(): string | null {
    const engine = this.deps.ocr.engine();
    return engine
      ? `${rowReaderVersion} ${engine.info.name}/${engine.info.version} ${pageLanguages.join('+')}`
      : null;
  }

  /**
   * Reads these items as scanned registry pages: an item read by the same versions is skipped; an item that is not
   * an image, or is a body photo (it has labels read from its card), is not read; a failed read is recorded with
   * its reason and the rest go on.
   */
  async read(
    refs: readonly string[],
    caller: Caller,
    options: { onItem?: (done: number, total: number) => void; signal?: AbortSignal } = {},
  ): Promise<PageSummary> {
    const started = performance.now();
    const summary: PageSummary = {
      items: 0,
      alreadyRead: 0,
      proposed: 0,
      pages: 0,
      rows: 0,
      noRows: 0,
      notImage: 0,
      bodyPhoto: 0,
      unavailable: 0,
      failed: 0,
      seconds: 0,
      problems: [],
    };
    const items: EvidenceItem[] = [];
    for (const ref of refs) items.push(await this.deps.catalogue.resolve(ref));
    const unique = [...new Map(items.map((i) => [i.id, i])).values()];
    summary.items = unique.length;
    const engine = this.deps.ocr.engine();
    const version = this.engineVersion();
    const repo = new OcrRowRepository(this.ctx.store.db);
    let n = 0;
    for (const item of unique) {
      if (options.signal?.aborted) break;
      n++;
      if (!engine || !version) {
        summary.unavailable++;
        summary.problems.push({
          evidenceId: item.id,
          outcome: 'unavailable',
          reason: this.deps.ocr.offReason() ?? 'OCR is off',
        });
        options.onItem?.(n, unique.length);
        continue;
      }
      if (await repo.readOf(item.id, version)) {
        summary.alreadyRead++;
        options.onItem?.(n, unique.length);
        continue;
      }
      const t0 = performance.now();
      let outcome: PageOutcome;
      let reason: string | null = null;
      let rows: NewRow[] = [];
      let page: Pick<PageRead, 'pageWidth' | 'pageHeight' | 'skew' | 'dateColumn' | 'pages' | 'pageSizes'> = {
        pageWidth: null,
        pageHeight: null,
        skew: null,
        dateColumn: null,
        pages: 0,
        pageSizes: null,
      };
      if (!DocumentPages.readable(item.mediaType, item.decodeStatus === 'decoded')) {
        outcome = 'not_image';
        reason =
          item.decodeStatus === 'decoded'
            ? `${item.mediaType} is not an image`
            : `not decoded (${item.decodeStatus})`;
      } else if ((await new BodyRepository(this.ctx.store.db).labelsForEvidence(item.id)).length > 0) {
        outcome = 'body_photo';
        reason = 'the item has body labels: it is a body photo, not a scanned page';
      } else if (isPdf(item.mediaType) && !this.documents.pdfAvailable()) {
        // As with the engine off: nothing recorded, the PDF is read when asked again once pdftoppm is installed.
        summary.unavailable++;
        summary.problems.push({ evidenceId: item.id, outcome: 'unavailable', reason: pdfInstallHint });
        options.onItem?.(n, unique.length);
        continue;
      } else {
        let pageNo = 0;
        let pages = 1;
        try {
          const bytes = await readAll(await this.ctx.blobs.open(item.sha256));
          const doc = await this.documents.open(bytes, item.mediaType);
          pages = doc.pages;
          const at = nowIso(this.ctx.clock);
          const sizes: { width: number; height: number }[] = [];
          let words = 0;
          let dateColumn: string | null = null;
          let skew: number | null = null;
          try {
            for (pageNo = 1; pageNo <= doc.pages; pageNo++) {
              // Stopped between pages: the document is left unrecorded and read whole next time.
              if (options.signal?.aborted) break;
              const image = await doc.page(pageNo);
              const { parsed, words: read, info } = await readRegistryPage(engine, image.bytes);
              words += read;
              // Boxes are given in pixels of the page as displayed: a single image's at its stored size (as
              // before pages), a document page's as rendered.
              let width = image.width || info.width;
              let height = image.height || info.height;
              if (doc.kind === 'image') {
                const rotated = item.orientation !== null && item.orientation >= 5;
                width = (rotated ? item.height : item.width) ?? info.width;
                height = (rotated ? item.width : item.height) ?? info.height;
              }
              const scale = width / info.width;
              sizes.push({ width, height });
              if (pageNo === 1) skew = parsed.skew;
              dateColumn ??= parsed.dateColumn;
              for (const r of parsed.rows)
                rows.push({
                  evidenceId: item.id,
                  page: pageNo,
                  index: r.index,
                  box: {
                    x: Math.round(r.box.x * scale),
                    y: Math.round(r.box.y * scale),
                    width: Math.round(r.box.width * scale),
                    height: Math.round(r.box.height * scale),
                  },
                  text: r.text,
                  fields: r.fields,
                  fieldConfidence: r.fieldConfidence,
                  confidence: r.confidence,
                  engine: version,
                  createdAt: at,
                });
            }
          } finally {
            await doc.close();
          }
          if (options.signal?.aborted && sizes.length < doc.pages) break;
          page = {
            pageWidth: sizes[0]?.width ?? null,
            pageHeight: sizes[0]?.height ?? null,
            skew,
            dateColumn,
            pages: doc.pages,
            pageSizes: sizes,
          };
          outcome = rows.length > 0 ? 'proposed' : 'no_rows';
          if (rows.length === 0)
            reason = `no line looked like a row of names (${words} words read${doc.pages > 1 ? ` on ${doc.pages} pages` : ''})`;
        } catch (error) {
          outcome = 'failed';
          rows = [];
          // A document's failure names its page (a single image's reads as before pages).
          const where =
            pages > 1 && pageNo > 0 && !(error instanceof PagesFailure) ? `page ${pageNo} of ${pages}: ` : '';
          reason =
            error instanceof OcrFailure || error instanceof PagesFailure
              ? `${where}${error.reason}: ${error.message.split('\n')[0]!.slice(0, 400)}`
              : `${where}${(error as Error).message.split('\n')[0]!.slice(0, 500)}`;
        }
      }
      const seconds = Math.round(((performance.now() - t0) / 1000) * 1000) / 1000;
      const recorded = await this.ctx.store.transaction((trx) =>
        new OcrRowRepository(trx).recordRead(
          {
            evidenceId: item.id,
            engine: version,
            outcome,
            reason,
            rows: rows.length,
            ...page,
            seconds,
            readAt: nowIso(this.ctx.clock),
            readBy: caller.actor?.userId ?? null,
          },
          rows,
        ),
      );
      if (!recorded) summary.alreadyRead++;
      else {
        summary.pages += page.pages;
        if (outcome === 'proposed') {
          summary.proposed++;
          summary.rows += rows.length;
        } else if (outcome === 'no_rows') summary.noRows++;
        else if (outcome === 'not_image') summary.notImage++;
        else if (outcome === 'body_photo') summary.bodyPhoto++;
        else summary.failed++;
        if (reason) summary.problems.push({ evidenceId: item.id, outcome, reason });
        await this.deps.audit.record(caller, {
          action: 'ocr.page_read',
          subjectType: 'evidence_item',
          subjectId: item.id,
          details: { engine: version, outcome, rows: rows.length },
        });
      }
      options.onItem?.(n, unique.length);
    }
    summary.seconds = Math.round((performance.now() - started) / 10) / 100;
    return summary;
  }

  /** An item's page reads (newest first) and rows, with the source name its records would go to. */
  async rows(
    ref: string,
    caller: Caller,
  ): Promise<{ item: EvidenceItem; reads: PageRead[]; rows: ScannedRow[]; sourceName: string }> {
    const item = await this.deps.catalogue.resolve(ref);
    const repo = new OcrRowRepository(this.ctx.store.db);
    const [reads, rows] = await Promise.all([repo.readsOf(item.id), repo.rowsOf(item.id)]);
    const decided = rows.find((r) => r.sourceId);
    const source = decided?.sourceId ? await this.deps.sources.get(decided.sourceId) : undefined;
    await this.deps.audit.record(caller, {
      action: 'ocr.rows_read',
      subjectType: 'evidence_item',
      subjectId: item.id,
      details: { rows: rows.length },
    });
    return { item, reads, rows, sourceName: source?.name ?? defaultSourceName(item) };
  }

  /** Whether an item was read as a scanned page (its plain page view is then served: a scan is not graphic). */
  async isPage(evidenceId: string): Promise<boolean> {
    return (await new OcrRowRepository(this.ctx.store.db).readAsPages([evidenceId])).has(evidenceId);
  }

  /**
   * The page as a documenter reads it beside its rows: the picture as displayed, grey, at most 1600 pixels on its
   * long side (JPEG). Only for an item read as a scanned page — someone asked for it to be read as a document,
   * and it has no body labels — so a body photo is never shown here unblurred; audited (it shows names).
   */
  async pageView(id: string, caller: Caller, pageNo = 1): Promise<ViewStream> {
    const item = await this.deps.catalogue.resolve(id);
    if (!(await this.isPage(item.id)))
      throw new DomainError(
        'conflict',
        `item ${id} was not read as a scanned page: its page view is not served`,
      );
    if (!Number.isInteger(pageNo) || pageNo < 1)
      throw new DomainError('invalid', `page: a page number from 1 (not ${pageNo})`, { field: 'page' });
    if (isPdf(item.mediaType) && !this.documents.pdfAvailable())
      throw new DomainError('unavailable', pdfInstallHint);
    const doc = await this.documents.open(
      await readAll(await this.ctx.blobs.open(item.sha256)),
      item.mediaType,
    );
    let image: Uint8Array;
    try {
      if (pageNo > doc.pages)
        throw new DomainError(
          'not_found',
          `page ${pageNo}: item ${id} has ${doc.pages === 1 ? 'one page' : `${doc.pages} pages`}`,
          { field: 'page' },
        );
      image = (await doc.page(pageNo)).bytes;
    } finally {
      await doc.close();
    }
    const view = await sharp(image)
      .rotate()
      .resize({ width: pageViewSide, height: pageViewSide, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .jpeg({ quality: 82 })
      .toBuffer();
    await this.deps.audit.record(caller, {
      action: 'ocr.page_viewed',
      subjectType: 'evidence_item',
      subjectId: item.id,
      details: { page: pageNo },
    });
    return { stream: Readable.from([view]), mediaType: 'image/jpeg', sha256: item.sha256, size: view.length };
  }

  /**
   * A documenter's decisions on a page's rows: accepted and corrected rows become records (kind registry_line) of
   * the source named `sourceName` (made, kind document, when no source has that name; by default "Scan <file
   * name>"), each with the external id `<item id>/p<page>/r<row>`; rejected rows make nothing. A row whose record
   * cannot be made (an impossible date, no name left) stays proposed and its error is answered.
   */
  async decide(
    ref: string,
    input: { decisions: readonly RowDecision[]; sourceName?: string; caller: SignedIn },
  ): Promise<{ rows: ScannedRow[]; sourceId: string | null; errors: { row: string; error: string }[] }> {
    const actor = input.caller.actor.userId;
    const item = await this.deps.catalogue.resolve(ref);
    const repo = new OcrRowRepository(this.ctx.store.db);
    const all = await repo.rowsOf(item.id);
    const mine = new Map(all.map((r) => [r.id, r]));
    if (input.decisions.length === 0) throw new DomainError('invalid', 'decisions: decide at least one row');
    const seen = new Set<string>();
    const toRecord: { row: ScannedRow; decision: RowDecision; fields: RowFields }[] = [];
    input.decisions.forEach((d, i) => {
      const row = mine.get(d.row);
      if (!row) throw new DomainError('not_found', `decisions.${i}.row: no row ${d.row} on this item`);
      if (seen.has(row.id)) throw new DomainError('invalid', `decisions.${i}.row: decided twice`);
      seen.add(row.id);
      if (row.status !== 'proposed')
        throw new DomainError('conflict', `decisions.${i}.row: already ${row.status} by ${row.decidedBy}`);
      if (d.action === 'correct' && !d.fields)
        throw new DomainError('invalid', `decisions.${i}.fields: give the fields as you read them`);
      if (d.action === 'reject') return;
      const fields: RowFields = { ...row.fields };
      for (const [k, v] of Object.entries(d.action === 'correct' ? (d.fields ?? {}) : {})) {
        const key = k as keyof RowFields;
        const text = (v ?? '').trim();
        if (text) fields[key] = text;
        else delete fields[key];
      }
      if (!fields.fullName && !fields.firstName && !fields.familyName)
        throw new DomainError('invalid', `decisions.${i}.fields: a row needs a name to become a record`);
      toRecord.push({ row, decision: d, fields });
    });
    const reads = await repo.readsOf(item.id);
    const readOf = new Map(reads.map((r) => [r.engine, r]));
    let sourceId: string | null = null;
    const errors: { row: string; error: string }[] = [];
    const made = new Map<string, string>();
    if (toRecord.length > 0) {
      const name = (input.sourceName?.trim() || defaultSourceName(item)).slice(0, 200);
      const source =
        (await this.deps.sources.find(name)) ??
        (await this.deps.sources.create(
          {
            name,
            kind: 'document',
            description: `Scanned registry (SYNTHETIC unless stated): evidence item ${item.id}, SHA-256 ${item.sha256}; rows read by OCR and decided by documenters`,
          },
          actor,
        ));
      sourceId = source.id;
      const results: ItemResult[] = await this.deps.registry.createRecords(
        toRecord.map(({ row, decision, fields }) => {
          const record: PersonRecordFields = {};
          for (const [k, column] of Object.entries(recordColumns)) {
            const v = fields[k as keyof RowFields];
            if (v && column) record[column] = v;
          }
          const dateColumn = decision.dateColumn ?? readOf.get(row.engine)?.dateColumn;
          if (fields.date && dateColumn) record[dateColumn as DateColumn] = fields.date;
          return {
            sourceId: source.id,
            kind: 'registry_line' as const,
            externalId: `${item.id}/p${row.page}/r${row.index}`,
            fields: record,
          };
        }),
        actor,
      );
      for (const r of results) {
        const { row } = toRecord[r.index]!;
        if (r.ok) made.set(row.id, r.id);
        else errors.push({ row: row.id, error: r.error });
      }
    }
    const at = nowIso(this.ctx.clock);
    const counts = { accepted: 0, corrected: 0, rejected: 0 };
    await this.ctx.store.transaction(async (trx) => {
      const r = new OcrRowRepository(trx);
      for (const d of input.decisions) {
        if (d.action !== 'reject' && !made.has(d.row)) continue;
        const entry = toRecord.find((t) => t.row.id === d.row);
        const status = d.action === 'accept' ? 'accepted' : d.action === 'correct' ? 'corrected' : 'rejected';
        const ok = await r.decide(d.row, {
          status,
          correctedFields: d.action === 'correct' ? (entry?.fields ?? null) : null,
          by: actor,
          at,
          recordId: made.get(d.row) ?? null,
          sourceId: d.action === 'reject' ? null : sourceId,
        });
        if (ok) counts[status]++;
      }
    });
    await this.deps.audit.record(input.caller, {
      action: 'ocr.rows_decided',
      subjectType: 'evidence_item',
      subjectId: item.id,
      details: { ...counts, source: sourceId, records: [...made.values()], errors: errors.length },
    });
    return { rows: await repo.rowsOf(item.id), sourceId, errors };
  }
}
