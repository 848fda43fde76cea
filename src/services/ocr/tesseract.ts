import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import {
  type EngineInfo,
  type OcrEngine,
  OcrFailure,
  type OcrRequest,
  type OcrResult,
  type PageSegmentation,
} from '../../ocr/engine.js';
import { parseTesseractTsv, parseTesseractVersion } from '../../ocr/tsv.js';

const psm: Record<PageSegmentation, string> = { auto: '3', block: '6', line: '7', word: '8', sparse: '11' };

/** What finding the engine gave: an engine, or why OCR is off (one line, with how to turn it on). */
export type TesseractProbe =
  | { ok: true; info: EngineInfo; languages: string[] }
  | { ok: false; reason: string };

export const tesseractInstallHint =
  'install it with: sudo apt-get install tesseract-ocr tesseract-ocr-ara (or set ATHAR_TESSERACT to its path)';

/** Looks for the tesseract binary and its languages; never throws. */
export function probeTesseract(
  binary = 'tesseract',
  needed: readonly string[] = ['ara', 'eng'],
): TesseractProbe {
  const v = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (v.error || v.status !== 0) {
    return { ok: false, reason: `OCR is off: ${binary} was not found; ${tesseractInstallHint}` };
  }
  const version = parseTesseractVersion(`${v.stdout}\n${v.stderr}`);
  if (!version) return { ok: false, reason: `OCR is off: ${binary} --version gave no version` };
  if (Number(version.split('.')[0]) < 4) {
    return { ok: false, reason: `OCR is off: tesseract ${version} is older than 4 (no LSTM engine)` };
  }
  const l = spawnSync(binary, ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
  const languages = `${l.stdout}`
    .split('\n')
    .slice(1)
    .map((s) => s.trim())
    .filter(Boolean);
  const missing = needed.filter((n) => !languages.includes(n));
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `OCR is off: tesseract ${version} lacks the language data ${missing.join(', ')}; install it with: sudo apt-get install ${missing.map((m) => `tesseract-ocr-${m}`).join(' ')}`,
    };
  }
  return { ok: true, info: { name: 'tesseract', version }, languages };
}

/** A counting semaphore: at most `size` holders at once, the rest wait in order. */
class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export interface TesseractOptions {
  binary?: string;
  /** Reads at once; default: the cores available. */
  concurrency?: number;
  /** Per read, unless the request says; default 30 s. */
  timeoutMs?: number;
}

/**
 * Tesseract as a child process per read: the image on stdin, TSV on stdout. Each process runs with
 * OMP_THREAD_LIMIT=1 (tesseract's OpenMP threads would fight the pool for the cores) in a pool sized to the cores.
 * A read that crashes, times out or is refused fails alone with an OcrFailure.
 */
export class TesseractEngine implements OcrEngine {
  readonly concurrency: number;
  private readonly pool: Pool;
  private readonly binary: string;
  private readonly timeoutMs: number;
  private readonly children = new Set<ReturnType<typeof spawn>>();
  private closed = false;

  constructor(
    readonly info: EngineInfo,
    options: TesseractOptions = {},
  ) {
    this.binary = options.binary ?? 'tesseract';
    this.concurrency = Math.max(1, options.concurrency ?? os.availableParallelism());
    this.pool = new Pool(this.concurrency);
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The engine if tesseract is installed with the languages, else null and the reason. */
  static open(
    options: TesseractOptions = {},
  ): { engine: TesseractEngine; reason?: undefined } | { engine: null; reason: string } {
    const probe = probeTesseract(options.binary);
    if (!probe.ok) return { engine: null, reason: probe.reason };
    return { engine: new TesseractEngine(probe.info, options) };
  }

  recognize(request: OcrRequest): Promise<OcrResult> {
    return this.pool.run(() => this.once(request));
  }

  private once(request: OcrRequest): Promise<OcrResult> {
    if (this.closed) return Promise.reject(new OcrFailure('unavailable', 'the OCR engine is closed'));
    const args = ['stdin', 'stdout', '-l', request.languages.join('+'), '--psm', psm[request.segmentation]];
    if (request.userWords) args.push('--user-words', request.userWords);
    if (request.characters) args.push('-c', `tessedit_char_whitelist=${request.characters}`);
    for (const [name, value] of Object.entries(request.settings ?? {})) {
      // A value with a space or a newline would be read as another argument or setting.
      if (!/^[a-z_][a-z0-9_]*$/i.test(name) || /[\s=]/.test(value))
        return Promise.reject(new Error(`tesseract setting ${name}=${value} is not valid`));
      args.push('-c', `${name}=${value}`);
    }
    args.push('tsv');
    const started = performance.now();
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    return new Promise<OcrResult>((resolve, reject) => {
      const child = spawn(this.binary, args, {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.children.add(child);
      const out: Buffer[] = [];
      let err = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => {
        if (err.length < 4000) err += b.toString('utf8');
      });
      child.stdin.on('error', () => {}); // a child that died early closes its stdin: the exit says why
      child.on('error', (e) => {
        clearTimeout(timer);
        this.children.delete(child);
        reject(new OcrFailure('unavailable', `tesseract could not be started: ${e.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        this.children.delete(child);
        const seconds = (performance.now() - started) / 1000;
        if (timedOut) {
          reject(new OcrFailure('timeout', `tesseract took longer than ${timeoutMs / 1000} s`));
          return;
        }
        const said = firstLine(err);
        if (signal) {
          reject(new OcrFailure('crashed', `tesseract was killed by ${signal}${said ? `: ${said}` : ''}`));
          return;
        }
        if (code !== 0) {
          const unreadable = /pixReadStream|Unknown format|read first|Image file .* cannot be read/i.test(
            err,
          );
          reject(
            new OcrFailure(
              unreadable ? 'unreadable' : 'crashed',
              `tesseract exited with ${code}${said ? `: ${said}` : ''}`,
            ),
          );
          return;
        }
        try {
          resolve({ words: parseTesseractTsv(Buffer.concat(out).toString('utf8')), seconds });
        } catch (e) {
          reject(new OcrFailure('crashed', `tesseract gave no TSV: ${(e as Error).message}`));
        }
      });
      child.stdin.end(request.image);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const child of this.children) child.kill('SIGKILL');
  }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((s) => s.trim())
      .find(
        (s) => s && !/^(Estimating resolution|Warning: Invalid resolution|Detected \d+ diacritics)/.test(s),
      ) ?? ''
  );
}
