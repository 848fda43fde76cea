import iconv from 'iconv-lite';

/**
 * The text of a file people have: UTF-8 with or without a BOM, UTF-16 LE/BE (Excel's "Unicode text"), or
 * Windows-1256 (Arabic Windows), detected or named. Whatever is neither is refused with the file and the byte
 * offset where it stops being text — before any row is read, so nothing is imported from a file half understood.
 * CR-only line endings (old Mac exports) are read as line ends, not as one long row.
 */

export const textEncodings = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1256'] as const;
export type TextEncoding = (typeof textEncodings)[number];

export class EncodingError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'EncodingError';
  }
}

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
  bom: boolean;
  /** How lines ended in the file; `cr` ones are read as `\n`. */
  lineEndings: 'lf' | 'crlf' | 'cr' | 'none';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Offset of the first byte that is not valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** A control character that no text file has (NUL, and C0 controls other than tab, LF, CR, FF). */
function isBadControl(code: number): boolean {
  return (
    code === 0 || (code < 0x20 && code !== 9 && code !== 10 && code !== 13 && code !== 12) || code === 0x7f
  );
}

function firstBadControl(text: string): number {
  for (let i = 0; i < text.length; i++) if (isBadControl(text.charCodeAt(i))) return i;
  return -1;
}

/**
 * UTF-16 without a BOM: one byte of each pair is the high byte of Latin or Arabic text (0x00 or 0x06), which no
 * 8-bit text holds (both are control bytes), while the other byte is not.
 */
function sniffUtf16(bytes: Uint8Array): TextEncoding | undefined {
  const n = Math.min(bytes.length - (bytes.length % 2), 1 << 16);
  if (n < 8) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0x00 || b === 0x06) i % 2 === 0 ? even++ : odd++;
  }
  const pairs = n / 2;
  if (odd >= pairs * 0.5 && even <= pairs * 0.05) return 'utf-16le';
  if (even >= pairs * 0.5 && odd <= pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** Whether Windows-1256 is a plausible reading: the bytes above 0x7F are mostly Arabic letters. */
function plausible1256(bytes: Uint8Array, text: string): boolean {
  let high = 0;
  for (const b of bytes) if (b >= 0x80) high++;
  if (high === 0) return false;
  let arabic = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x0600 && c <= 0x06ff) || c === 0x200c || c === 0x200d || c === 0x200e || c === 0x200f)
      arabic++;
  }
  return arabic >= high * 0.6;
}

/** Byte offset of the code unit at `index` in a text decoded from `encoding` (for messages). */
function byteOffset(text: string, index: number, encoding: TextEncoding, bom: boolean): number {
  const head = text.slice(0, index);
  const base =
    encoding === 'utf-8'
      ? Buffer.byteLength(head, 'utf8')
      : encoding === 'windows-1256'
        ? head.length
        : head.length * 2;
  return base + (bom ? (encoding === 'utf-8' ? 3 : 2) : 0);
}

function lineEndingsOf(text: string): DecodedText['lineEndings'] {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf < 0 && cr < 0) return 'none';
  if (lf < 0) return 'cr';
  return lf > 0 && text.charCodeAt(lf - 1) === 13 ? 'crlf' : 'lf';
}

/** The 1-based line holding a byte offset: line feeds before it, as bytes (8-bit) or code units (UTF-16). */
export function lineAt(bytes: Uint8Array, offset: number, encoding?: TextEncoding): number {
  let line = 1;
  const end = Math.min(offset, bytes.length);
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const low = encoding === 'utf-16le' ? 0 : 1;
    for (let i = 0; i + 1 < end; i += 2) {
      if (bytes[i + low] === 0x0a && bytes[i + 1 - low] === 0) line++;
    }
    return line;
  }
  let cr = 0;
  for (let i = 0; i < end; i++) {
    if (bytes[i] === 0x0a) line++;
    else if (bytes[i] === 0x0d) cr++;
  }
  // CR-only line ends (old Mac exports) count as lines too.
  return line === 1 && cr > 0 ? cr + 1 : line;
}

const refusal = (
  bytes: Uint8Array,
  encoding: TextEncoding | undefined,
  file: string,
  offset: number,
  why: string,
) =>
  new EncodingError(
    `${file}: byte offset ${offset}: ${why} (line ${lineAt(bytes, offset, encoding)}); the file is not UTF-8, UTF-16 or Windows-1256 text (give --encoding if you know its encoding)`,
    file,
    offset,
  );

/** Decodes a whole file, detecting its encoding unless one is given. Throws EncodingError naming the offset. */
export function decodeText(bytes: Uint8Array, file: string, given?: TextEncoding): DecodedText {
  let encoding: TextEncoding | undefined = given;
  let bom = false;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bom = true;
    encoding ??= 'utf-8';
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    bom = true;
    encoding ??= 'utf-16le';
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    bom = true;
    encoding ??= 'utf-16be';
  }
  encoding ??= sniffUtf16(bytes);
  let text: string;
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const body = bytes.subarray(bom ? 2 : 0);
    if (body.length % 2 !== 0)
      throw refusal(bytes, encoding, file, bytes.length - 1, `an odd number of bytes cannot be ${encoding}`);
    text = iconv.decode(Buffer.from(body), encoding);
  } else if (encoding === 'windows-1256') {
    text = iconv.decode(Buffer.from(bytes), 'windows-1256');
  } else {
    const body = bytes.subarray(bom ? 3 : 0);
    const bad = firstInvalidUtf8(body);
    if (bad < 0) {
      text = utf8.decode(body);
      encoding = 'utf-8';
    } else if (given === 'utf-8') {
      throw refusal(
        bytes,
        encoding,
        file,
        bad + (bom ? 3 : 0),
        `byte 0x${(body[bad] as number).toString(16).padStart(2, '0')} is not valid UTF-8`,
      );
    } else {
      const nul = body.indexOf(0);
      if (nul >= 0 && nul < bad) throw refusal(bytes, encoding, file, nul + (bom ? 3 : 0), 'a NUL byte');
      const guess = iconv.decode(Buffer.from(body), 'windows-1256');
      if (bom || !plausible1256(body, guess) || firstBadControl(guess) >= 0) {
        const control = firstBadControl(guess);
        const at = control >= 0 && control < bad ? control : bad;
        throw refusal(
          bytes,
          encoding,
          file,
          at + (bom ? 3 : 0),
          at === control
            ? `control byte 0x${(body[at] as number).toString(16).padStart(2, '0')}`
            : `byte 0x${(body[bad] as number).toString(16).padStart(2, '0')} is not valid UTF-8`,
        );
      }
      text = guess;
      encoding = 'windows-1256';
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const control = firstBadControl(text);
  if (control >= 0) {
    const code = text.charCodeAt(control);
    throw refusal(
      bytes,
      encoding,
      file,
      byteOffset(text, control, encoding, bom),
      code === 0 ? 'a NUL character' : `control character U+${code.toString(16).padStart(4, '0')}`,
    );
  }
  const lineEndings = lineEndingsOf(text);
  if (lineEndings === 'cr') text = text.replace(/\r/g, '\n');
  return { text, encoding, bom, lineEndings };
}
