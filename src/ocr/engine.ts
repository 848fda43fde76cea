/**
 * The OCR engine seam: what athar asks of an engine and what it gets back. Pure types; the engines themselves
 * (a child process, another library) live under src/services/ocr/.
 */

/** A region of an image, in pixels of the image the engine was given (or, once mapped, of the stored picture). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One word as the engine read it, with its line (block, paragraph and line numbers joined) and confidence 0–1. */
export interface OcrWord {
  text: string;
  confidence: number;
  box: Box;
  /** Words sharing a line key were read as one line, in the engine's reading order. */
  line: string;
}

export type PageSegmentation = 'auto' | 'block' | 'line' | 'word' | 'sparse';

export interface OcrRequest {
  /** An encoded image (PNG, JPEG, TIFF): the engine decodes it. */
  image: Uint8Array;
  /** Engine language names, e.g. ['ara'] or ['ara', 'eng']. */
  languages: readonly string[];
  segmentation: PageSegmentation;
  /** Only these characters may be read, when the engine supports it. */
  characters?: string;
  /** Engine settings by name (tesseract's `-c name=value`), e.g. { textord_noise_rejrows: '0' }. */
  settings?: Readonly<Record<string, string>>;
  /**
   * A file of words, one a line, the engine should favour (tesseract's `--user-words`): its own dictionaries stay
   * loaded beside it.
   */
  userWords?: string;
  /** A read taking longer is stopped and fails with reason 'timeout'. */
  timeoutMs?: number;
}

export interface OcrResult {
  words: OcrWord[];
  /** Seconds the engine took for this image. */
  seconds: number;
}

/** Why one read failed: the job records it for that item and goes on. */
export type OcrFailureReason = 'timeout' | 'crashed' | 'unreadable' | 'unavailable';

export class OcrFailure extends Error {
  constructor(
    readonly reason: OcrFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'OcrFailure';
  }
}

export interface EngineInfo {
  /** e.g. 'tesseract' */
  name: string;
  /** e.g. '5.3.0' */
  version: string;
}

/** An OCR engine: reads words with their boxes. One instance may read several images at once (its pool). */
export interface OcrEngine {
  readonly info: EngineInfo;
  /** How many reads run at once. */
  readonly concurrency: number;
  recognize(request: OcrRequest): Promise<OcrResult>;
  close(): Promise<void>;
}
