import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * The pages of a scanned document (docs/ocr.md, "Scanned registries"): an image is one page; a multi-page TIFF
 * gives each of its pages through sharp; a PDF each of its pages rendered by poppler's `pdftoppm` (Debian's
 * poppler-utils), one page at a time into a temporary folder, so a long document never sits in memory whole.
 */

/** Why a document's pages could not be had: `unavailable` (no pdftoppm) is not recorded, the rest are failures. */
export type PagesFailureReason = 'unavailable' | 'unreadable' | 'timeout' | 'too_many_pages';

export class PagesFailure extends Error {
  constructor(
    readonly reason: PagesFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'PagesFailure';
  }
}

export const pdfInstallHint =
  'PDFs are not read: pdftoppm was not found; install it with: sudo apt-get install poppler-utils';

/** One page as an encoded image, and its size as displayed (EXIF orientation applied). */
export interface PageImage {
  bytes: Uint8Array;
  width: number;
  height: number;
}

export interface OpenedDocument {
  /** `image`: a one-page picture, handed on as it is (a single image reads exactly as before pages existed). */
  kind: 'image' | 'tiff' | 'pdf';
  pages: number;
  /** Page `n`, 1-based. */
  page(n: number): Promise<PageImage>;
  close(): Promise<void>;
}

export interface DocumentPagesOptions {
  /** The pdftoppm binary (pdfinfo is looked for beside it); null: PDFs are not read. */
  pdftoppm?: string | null;
  /** PDF pages are rendered at this resolution: 200 dpi gives A4 1654×2339, near the pages the reader was tuned on. */
  dpi?: number;
  /** A document with more pages is refused (a failure naming the count): one read is bounded in time. */
  maxPages?: number;
  /** Each poppler run is killed after this long. */
  timeoutMs?: number;
}

export const isPdf = (mediaType: string): boolean => mediaType === 'application/pdf';

export class DocumentPages {
  private readonly pdftoppm: string | null;
  private readonly pdfinfo: string | null;
  private readonly dpi: number;
  readonly maxPages: number;
  private readonly timeoutMs: number;
  private probed: boolean | undefined;

  constructor(options: DocumentPagesOptions = {}) {
    this.pdftoppm = options.pdftoppm === undefined ? 'pdftoppm' : options.pdftoppm;
    this.pdfinfo =
      this.pdftoppm === null
        ? null
        : path.dirname(this.pdftoppm) === '.'
          ? 'pdfinfo'
          : path.join(path.dirname(this.pdftoppm), 'pdfinfo');
    this.dpi = options.dpi ?? 200;
    this.maxPages = options.maxPages ?? 200;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** Whether PDFs can be read here (`pdftoppm -v` answers; probed once). */
  pdfAvailable(): boolean {
    if (this.probed === undefined) {
      this.probed =
        this.pdftoppm !== null &&
        spawnSync(this.pdftoppm, ['-v'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    }
    return this.probed;
  }

  /**
   * Whether an item is read as pages: a PDF, or what the ingest decoded as an image — whatever type it was
   * recorded with (a large TIFF whose directory lies past the ingest's first megabyte is not recognised by its
   * magic bytes, is decoded because its name says image, and is recorded application/octet-stream).
   */
  static readable(mediaType: string, decoded: boolean): boolean {
    return isPdf(mediaType) || decoded;
  }

  async open(bytes: Uint8Array, mediaType: string): Promise<OpenedDocument> {
    if (isPdf(mediaType)) return this.openPdf(bytes);
    const pages = (await sharp(bytes, { failOn: 'error' }).metadata()).pages ?? 1;
    if (pages > this.maxPages) throw tooMany(pages, this.maxPages);
    if (pages <= 1) {
      return {
        kind: 'image',
        pages: 1,
        page: async (n) => {
          if (n !== 1) throw new RangeError(`page ${n}: the image has one page`);
          const m = await sharp(bytes).metadata();
          const turned = (m.orientation ?? 1) >= 5;
          return {
            bytes,
            width: (turned ? m.height : m.width) ?? 0,
            height: (turned ? m.width : m.height) ?? 0,
          };
        },
        close: async () => {},
      };
    }
    return {
      kind: 'tiff',
      pages,
      page: async (n) => {
        if (n < 1 || n > pages) throw new RangeError(`page ${n}: the document has ${pages} pages`);
        // Re-encoded losslessly with its orientation applied: the reader takes one encoded picture.
        const { data, info } = await sharp(bytes, { page: n - 1, failOn: 'error' })
          .rotate()
          .png({ compressionLevel: 1 })
          .toBuffer({ resolveWithObject: true });
        return { bytes: data, width: info.width, height: info.height };
      },
      close: async () => {},
    };
  }

  private async openPdf(bytes: Uint8Array): Promise<OpenedDocument> {
    if (!this.pdfAvailable() || !this.pdftoppm || !this.pdfinfo)
      throw new PagesFailure('unavailable', pdfInstallHint);
    const pdftoppm = this.pdftoppm;
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'athar-pdf-'));
    const close = () => fs.promises.rm(dir, { recursive: true, force: true });
    try {
      const file = path.join(dir, 'document.pdf');
      await fs.promises.writeFile(file, bytes);
      const info = await run(this.pdfinfo, [file], this.timeoutMs);
      if (info.timedOut)
        throw new PagesFailure('timeout', `pdfinfo took over ${this.timeoutMs / 1000} s on the PDF`);
      if (info.code !== 0)
        throw new PagesFailure(
          'unreadable',
          `the PDF could not be read: ${firstLine(info.stderr, info.code)}`,
        );
      const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1] ?? 0);
      if (pages < 1) throw new PagesFailure('unreadable', 'the PDF has no pages');
      if (pages > this.maxPages) throw tooMany(pages, this.maxPages);
      const dpi = String(this.dpi);
      return {
        kind: 'pdf',
        pages,
        page: async (n) => {
          if (n < 1 || n > pages) throw new RangeError(`page ${n}: the document has ${pages} pages`);
          const out = path.join(dir, `page-${n}`);
          const done = await run(
            pdftoppm,
            ['-r', dpi, '-gray', '-png', '-f', String(n), '-l', String(n), '-singlefile', file, out],
            this.timeoutMs,
          );
          if (done.timedOut)
            throw new PagesFailure(
              'timeout',
              `page ${n} of ${pages}: pdftoppm took over ${this.timeoutMs / 1000} s`,
            );
          if (done.code !== 0 || !fs.existsSync(`${out}.png`))
            throw new PagesFailure(
              'unreadable',
              `page ${n} of ${pages}: pdftoppm could not render it: ${firstLine(done.stderr, done.code)}`,
            );
          const png = await fs.promises.readFile(`${out}.png`);
          await fs.promises.rm(`${out}.png`, { force: true });
          const m = await sharp(png).metadata();
          return { bytes: png, width: m.width ?? 0, height: m.height ?? 0 };
        },
        close,
      };
    } catch (error) {
      await close();
      throw error;
    }
  }
}

function tooMany(pages: number, max: number): PagesFailure {
  return new PagesFailure(
    'too_many_pages',
    `the document has ${pages} pages; at most ${max} are read in one document (split it to read it)`,
  );
}

function firstLine(stderr: string, code: number | null): string {
  const line = stderr
    .split('\n')
    .find((l) => l.trim())
    ?.trim();
  return (line ?? `exit ${code}`).slice(0, 300);
}

/** A poppler run with bounded time: killed (SIGKILL) past the limit. */
function run(
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < 100_000) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 10_000) stderr += d;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: error.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
