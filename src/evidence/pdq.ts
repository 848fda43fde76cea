/**
 * PDQ, Meta's 256-bit perceptual hash for photos, implemented from its published description (ThreatExchange,
 * "PDQ and TMK+PDQF", hashing.pdf, 2019): luminance, a two-pass Jarosz tent filter and decimation to 64×64, the
 * 16×16 lowest non-DC coefficients of a 2-D DCT-II, and one bit per coefficient for "above the median". A
 * quality figure from the 64×64 image's gradients says how much the hash can be trusted (below 50: little).
 *
 * Pure: pixels in, hash out. The hex form is the reference's: 64 hex digits, the most significant first, where
 * bit k (k = 16·row + column of the DCT output) is the value 2^k.
 */

/** A PDQ hash: 32 bytes, big-endian, the same order as its hex form. */
export type PdqHash = Uint8Array;

export interface PdqResult {
  hash: PdqHash;
  /** 0–100; the reference advises not to rely on hashes below 50 (flat or featureless images). */
  quality: number;
}

/** Below this many rows or columns the reference gives the all-zero hash with quality 0. */
const minHashableSide = 5;
const side = 64;
const dctSize = 16;
const jaroszPasses = 2;

/** Rows i = 1…16 of the 64-point DCT-II matrix (row 0, the DC term, is left out), scaled by √(2/64). */
const dctMatrix: Float64Array = (() => {
  const m = new Float64Array(dctSize * side);
  const scale = Math.sqrt(2 / side);
  for (let i = 0; i < dctSize; i++) {
    for (let j = 0; j < side; j++) {
      m[i * side + j] = scale * Math.cos((Math.PI / 2 / side) * (i + 1) * (2 * j + 1));
    }
  }
  return m;
})();

/**
 * Rec. 601 luma (0.299 R + 0.587 G + 0.114 B) of 8-bit pixels, row-major; channels beyond the first three
 * (alpha) are ignored, one or two channels are grey (with alpha).
 */
export function lumaFromPixels(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  into?: Float32Array,
): Float32Array {
  const n = width * height;
  const luma = into && into.length >= n ? into : new Float32Array(n);
  if (channels >= 3) {
    for (let p = 0, o = 0; p < n; p++, o += channels) {
      luma[p] = 0.299 * pixels[o]! + 0.587 * pixels[o + 1]! + 0.114 * pixels[o + 2]!;
    }
  } else {
    for (let p = 0, o = 0; p < n; p++, o += channels) luma[p] = pixels[o]!;
  }
  return luma;
}

/** The reference tool resamples any picture larger than this on either side to exactly this square first. */
export const referenceSide = 512;

/**
 * PDQ of a picture as the reference tool hashes its file: when the original is larger than 512 on either side it
 * is resampled to exactly 512×512 (aspect not kept) before hashing, otherwise hashed at its size. `pixels` may be
 * a version of the original already shrunk keeping its aspect (as a decoder's shrink-on-load gives): it is then
 * stretched to the 512×512 square by nearest neighbour.
 */
export function pdqOfPicture(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  original: { width: number; height: number },
): PdqResult {
  const squared = original.width > referenceSide || original.height > referenceSide;
  if (!squared || (width === referenceSide && height === referenceSide)) {
    return pdqFromPixels(pixels, width, height, channels);
  }
  // Luma of the nearest source pixel for each pixel of the square, in one pass.
  const n = referenceSide;
  const luma = scratch(n * n, 2);
  const columnOffset = new Int32Array(n);
  for (let x = 0; x < n; x++)
    columnOffset[x] = Math.min(width - 1, Math.floor(((x + 0.5) * width) / n)) * channels;
  for (let y = 0; y < n; y++) {
    const row = Math.min(height - 1, Math.floor(((y + 0.5) * height) / n)) * width * channels;
    const base = y * n;
    if (channels >= 3) {
      for (let x = 0; x < n; x++) {
        const o = row + columnOffset[x]!;
        luma[base + x] = 0.299 * pixels[o]! + 0.587 * pixels[o + 1]! + 0.114 * pixels[o + 2]!;
      }
    } else {
      for (let x = 0; x < n; x++) luma[base + x] = pixels[row + columnOffset[x]!]!;
    }
  }
  return pdqFromLuma(luma, n, n);
}

/** PDQ of 8-bit pixels (see lumaFromPixels for the channel layout). */
export function pdqFromPixels(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
): PdqResult {
  const luma = lumaFromPixels(pixels, width, height, channels, scratch(width * height, 2));
  return pdqFromLuma(luma, width, height);
}

/** PDQ of a luminance image (row-major, values 0–255, at least width × height of them). */
export function pdqFromLuma(luma: Float32Array, width: number, height: number): PdqResult {
  if (width < minHashableSide || height < minHashableSide) {
    return { hash: new Uint8Array(32), quality: 0 };
  }
  const small = downsampleTo64(luma, width, height);
  const quality = qualityOf(small);
  const coefficients = dct64To16(small);
  return { hash: bitsAboveMedian(coefficients), quality };
}

/**
 * The Jarosz window: half of the input pixels that fall on one output pixel, rounded up, because two passes of
 * a box filter of that width make a tent as wide as a whole output pixel.
 */
export function jaroszWindow(oldSize: number, newSize: number): number {
  return Math.floor((oldSize + 2 * newSize - 1) / (2 * newSize));
}

/**
 * The Jarosz tent filter (box filters along rows, then columns, twice) followed by decimation to 64×64 at the
 * centre of each output pixel's footprint. Only the filtered values the decimation finally reads are computed:
 * walking back from the 64×64 samples, each box stage needs its input only within its window of what the next
 * stage needs. The averages are the reference's (clipped windows at the edges average fewer samples), summed
 * directly instead of by running sums, at a fraction of the work.
 */
function downsampleTo64(luma: Float32Array, width: number, height: number): Float32Array {
  if (width === side && height === side) return luma.slice(0, side * side);
  const rowWindow = windowReach(jaroszWindow(width, side));
  const columnWindow = windowReach(jaroszWindow(height, side));
  const stages: { alongRows: boolean; reach: Reach }[] = [];
  for (let pass = 0; pass < jaroszPasses; pass++) {
    stages.push({ alongRows: true, reach: rowWindow }, { alongRows: false, reach: columnWindow });
  }
  // What each stage must produce, from the last stage back to the first.
  const rowsOut = Int32Array.from({ length: side }, (_, k) => Math.floor(((k + 0.5) * height) / side));
  const columnsOut = Int32Array.from({ length: side }, (_, k) => Math.floor(((k + 0.5) * width) / side));
  const needs: { rows: Int32Array; columns: Int32Array }[] = new Array(stages.length);
  let rows: Int32Array = rowsOut;
  let columns: Int32Array = columnsOut;
  for (let s = stages.length - 1; s >= 0; s--) {
    needs[s] = { rows, columns };
    const { alongRows, reach } = stages[s]!;
    if (alongRows) columns = spread(columns, reach, width);
    else rows = spread(rows, reach, height);
  }
  let input = luma;
  let output = scratch(width * height, 0);
  for (let s = 0; s < stages.length; s++) {
    const { alongRows, reach } = stages[s]!;
    const need = needs[s]!;
    if (alongRows) boxAlongRows(input, output, width, need.rows, need.columns, reach);
    else boxAlongColumns(input, output, width, height, need.rows, need.columns, reach);
    const next = input === luma ? scratch(width * height, 1) : input;
    input = output;
    output = next;
  }
  const out = new Float32Array(side * side);
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) out[i * side + j] = input[rowsOut[i]! * width + columnsOut[j]!]!;
  }
  return out;
}

type Reach = readonly [behind: number, ahead: number];

/**
 * How far a box window of this width reaches before and after its output sample, as the reference places it:
 * output i averages inputs i − (window − half) … i + half − 1, with half = ⌊(window + 2) / 2⌋.
 */
function windowReach(window: number): Reach {
  const half = Math.floor((window + 2) / 2);
  return [window - half, half - 1];
}

/** Every index within reach of the given (sorted) ones, clipped to 0 … size − 1, sorted. */
function spread(indices: Int32Array, [behind, ahead]: Reach, size: number): Int32Array {
  const wanted = new Uint8Array(size);
  for (const i of indices) {
    for (let k = Math.max(0, i - behind); k <= Math.min(size - 1, i + ahead); k++) wanted[k] = 1;
  }
  const out: number[] = [];
  for (let k = 0; k < size; k++) if (wanted[k]) out.push(k);
  return Int32Array.from(out);
}

function boxAlongRows(
  input: Float32Array,
  output: Float32Array,
  width: number,
  rows: Int32Array,
  columns: Int32Array,
  [behind, ahead]: Reach,
): void {
  for (const y of rows) {
    const base = y * width;
    for (const x of columns) {
      const from = Math.max(x - behind, 0);
      const to = Math.min(x + ahead, width - 1);
      let sum = 0;
      for (let k = base + from; k <= base + to; k++) sum += input[k]!;
      output[base + x] = sum / (to - from + 1);
    }
  }
}

function boxAlongColumns(
  input: Float32Array,
  output: Float32Array,
  width: number,
  height: number,
  rows: Int32Array,
  columns: Int32Array,
  [behind, ahead]: Reach,
): void {
  for (const y of rows) {
    const from = Math.max(y - behind, 0);
    const to = Math.min(y + ahead, height - 1);
    const scale = 1 / (to - from + 1);
    for (const x of columns) {
      let sum = 0;
      for (let k = from * width + x; k <= to * width + x; k += width) sum += input[k]!;
      output[y * width + x] = sum * scale;
    }
  }
}

/**
 * Reusable work buffers (two for filtering, one for luma): hashing runs thousands of times a minute and need not
 * churn the allocator.
 */
const buffers: Float32Array[] = [new Float32Array(0), new Float32Array(0), new Float32Array(0)];
function scratch(length: number, which: 0 | 1 | 2): Float32Array {
  if (buffers[which]!.length < length) buffers[which] = new Float32Array(length);
  return buffers[which]!;
}

/**
 * Counts the significant steps between neighbouring pixels of the 64×64 image (each step in percent of full
 * scale, truncated), scaled so that a well-textured photo reaches 100.
 */
function qualityOf(a: Float32Array): number {
  let gradients = 0;
  for (let i = 0; i < side - 1; i++) {
    for (let j = 0; j < side; j++) {
      gradients += Math.abs(Math.trunc(((a[i * side + j]! - a[(i + 1) * side + j]!) * 100) / 255));
    }
  }
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side - 1; j++) {
      gradients += Math.abs(Math.trunc(((a[i * side + j]! - a[i * side + j + 1]!) * 100) / 255));
    }
  }
  return Math.min(100, Math.floor(gradients / 90));
}

/** B = D·A·Dᵀ, keeping only the 16×16 lowest frequencies after DC. */
function dct64To16(a: Float32Array): Float64Array {
  const t = new Float64Array(dctSize * side);
  for (let i = 0; i < dctSize; i++) {
    for (let j = 0; j < side; j++) {
      let sum = 0;
      for (let k = 0; k < side; k++) sum += dctMatrix[i * side + k]! * a[k * side + j]!;
      t[i * side + j] = sum;
    }
  }
  const b = new Float64Array(dctSize * dctSize);
  for (let i = 0; i < dctSize; i++) {
    for (let j = 0; j < dctSize; j++) {
      let sum = 0;
      for (let k = 0; k < side; k++) sum += t[i * side + k]! * dctMatrix[j * side + k]!;
      b[i * dctSize + j] = sum;
    }
  }
  return b;
}

/** One bit per coefficient: set when it exceeds the median (the lower of the two middle values). */
function bitsAboveMedian(coefficients: Float64Array): PdqHash {
  const sorted = Float64Array.from(coefficients).sort();
  const median = sorted[Math.floor((coefficients.length + 1) / 2) - 1]!;
  const hash = new Uint8Array(32);
  for (let k = 0; k < coefficients.length; k++) {
    if (coefficients[k]! > median) {
      const byte = 31 - (k >> 3);
      hash[byte] = hash[byte]! | (1 << (k & 7));
    }
  }
  return hash;
}

export function pdqToHex(hash: PdqHash): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
}

/** Parses 64 hex digits; undefined for anything else. */
export function pdqFromHex(hex: string): PdqHash | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
