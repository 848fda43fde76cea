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
 * stretched to the 512×512 square bilinearly (pixel centres aligned) — folded into the filter weights, so the
 * square is never made.
 */
export function pdqOfPicture(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  original: { width: number; height: number },
): PdqResult {
  const squared = original.width > referenceSide || original.height > referenceSide;
  if (width < minHashableSide || height < minHashableSide) {
    return pdqFromLuma(lumaFromPixels(pixels, width, height, channels), width, height);
  }
  const across = axisWeights(width, squared ? referenceSide : width);
  const down = axisWeights(height, squared ? referenceSide : height);
  if (channels >= 3) return pdqFromSmall(downsampleRgb(pixels, width, channels, across, down));
  const luma = lumaFromPixels(pixels, width, height, channels, scratch(width * height));
  return pdqFromSmall(downsample(luma, width, across, down));
}

/** PDQ of a luminance image (row-major, values 0–255, at least width × height of them). */
export function pdqFromLuma(luma: Float32Array, width: number, height: number): PdqResult {
  if (width < minHashableSide || height < minHashableSide) {
    return { hash: new Uint8Array(32), quality: 0 };
  }
  return pdqFromSmall(downsample(luma, width, axisWeights(width, width), axisWeights(height, height)));
}

function pdqFromSmall(small: Float32Array): PdqResult {
  return { hash: bitsAboveMedian(dct64To16(small)), quality: qualityOf(small) };
}

/**
 * The Jarosz window: half of the input pixels that fall on one output pixel, rounded up, because two passes of
 * a box filter of that width make a tent as wide as a whole output pixel.
 */
export function jaroszWindow(oldSize: number, newSize: number): number {
  return Math.floor((oldSize + 2 * newSize - 1) / (2 * newSize));
}

/**
 * For each of the 64 output samples along one axis, the input pixels it is made of and their weights: the
 * output is a weighted sum of a few neighbouring inputs.
 */
interface AxisWeights {
  /** Input index of each output's first weight. */
  first: Int32Array;
  /** Offset of each output's weights in `weights` (65 entries: the last closes the 64th). */
  offset: Int32Array;
  weights: Float64Array;
}

/**
 * The reference filter along one axis, as weights: box filters of the Jarosz window (clipped at the edges, where
 * they average fewer samples) applied twice, then decimation at the centre of each output pixel's footprint;
 * the box filters act on rows and on columns independently, so the whole filter is this axis's weights applied
 * along rows times the other axis's along columns. When `stretched` differs from `size`, the input is first
 * stretched to `stretched` samples bilinearly, and that too is folded in. Cached: a run meets few sizes.
 */
function axisWeights(size: number, stretched: number): AxisWeights {
  const key = size * 65536 + stretched;
  const cached = weightCache.get(key);
  if (cached) return cached;
  const window = jaroszWindow(stretched, side);
  const half = Math.floor((window + 2) / 2);
  const behind = window - half;
  const ahead = half - 1;
  const first = new Int32Array(side);
  const offset = new Int32Array(side + 1);
  const all: number[] = [];
  let v = new Float64Array(stretched);
  let w = new Float64Array(stretched);
  const onInput = new Float64Array(size);
  for (let k = 0; k < side; k++) {
    // Walk back from the decimated sample through both box passes: each sample spreads its weight evenly over
    // the window it averages.
    v.fill(0);
    v[Math.floor(((k + 0.5) * stretched) / side)] = 1;
    for (let pass = 0; pass < jaroszPasses; pass++) {
      w.fill(0);
      for (let i = 0; i < stretched; i++) {
        if (v[i] === 0) continue;
        const from = Math.max(0, i - behind);
        const to = Math.min(stretched - 1, i + ahead);
        const share = v[i]! / (to - from + 1);
        for (let j = from; j <= to; j++) w[j]! += share;
      }
      [v, w] = [w, v];
    }
    onInput.fill(0);
    for (let i = 0; i < stretched; i++) {
      if (v[i] === 0) continue;
      if (stretched === size) {
        onInput[i]! += v[i]!;
        continue;
      }
      const at = Math.min(size - 1, Math.max(0, ((i + 0.5) * size) / stretched - 0.5));
      const lower = Math.floor(at);
      const upper = Math.min(size - 1, lower + 1);
      const fraction = at - lower;
      onInput[lower]! += v[i]! * (1 - fraction);
      onInput[upper]! += v[i]! * fraction;
    }
    let lo = 0;
    while (onInput[lo] === 0) lo++;
    let hi = size - 1;
    while (onInput[hi] === 0) hi--;
    first[k] = lo;
    offset[k] = all.length;
    for (let i = lo; i <= hi; i++) all.push(onInput[i]!);
  }
  offset[side] = all.length;
  const result = { first, offset, weights: Float64Array.from(all) };
  if (weightCache.size >= 64) weightCache.clear();
  weightCache.set(key, result);
  return result;
}
const weightCache = new Map<number, AxisWeights>();

/** The filtered, decimated 64×64 image: the row weights across, then the column weights down. */
function downsample(luma: Float32Array, width: number, across: AxisWeights, down: AxisWeights): Float32Array {
  // Only the rows some output reads are filtered across.
  const [rowFrom, rowTo] = rowsRead(down);
  const partial = scratchPartial((rowTo - rowFrom + 1) * side);
  const { first, offset, weights } = across;
  for (let y = rowFrom; y <= rowTo; y++) {
    const row = y * width;
    const out = (y - rowFrom) * side;
    for (let j = 0; j < side; j++) {
      let sum = 0;
      const x0 = row + first[j]! - offset[j]!;
      for (let t = offset[j]!; t < offset[j + 1]!; t++) sum += weights[t]! * luma[x0 + t]!;
      partial[out + j] = sum;
    }
  }
  return downPass(partial, rowFrom, down);
}

/**
 * `downsample` of RGB pixels, each pixel's luma taken as the across pass reads it: the same numbers (luma rounded
 * to 32 bits as lumaFromPixels stores it) without writing and reading back a luma image — the pass that cost
 * as much as the filter itself. Its own copy of the loop, not a shared one calling back per sample: this is the
 * hottest loop of an ingest.
 */
function downsampleRgb(
  pixels: Uint8Array,
  width: number,
  channels: number,
  across: AxisWeights,
  down: AxisWeights,
): Float32Array {
  const [rowFrom, rowTo] = rowsRead(down);
  const partial = scratchPartial((rowTo - rowFrom + 1) * side);
  const { first, offset, weights } = across;
  for (let y = rowFrom; y <= rowTo; y++) {
    const row = y * width;
    const out = (y - rowFrom) * side;
    for (let j = 0; j < side; j++) {
      let sum = 0;
      let o = (row + first[j]!) * channels;
      for (let t = offset[j]!; t < offset[j + 1]!; t++, o += channels) {
        sum +=
          weights[t]! * Math.fround(0.299 * pixels[o]! + 0.587 * pixels[o + 1]! + 0.114 * pixels[o + 2]!);
      }
      partial[out + j] = sum;
    }
  }
  return downPass(partial, rowFrom, down);
}

/** The first and last input rows some output row reads. */
function rowsRead(down: AxisWeights): [number, number] {
  return [down.first[0]!, down.first[side - 1]! + (down.offset[side]! - down.offset[side - 1]!) - 1];
}

/** The column weights applied down the rows already filtered across (`partial`, from row `rowFrom` on). */
function downPass(partial: Float64Array, rowFrom: number, down: AxisWeights): Float32Array {
  const small = new Float32Array(side * side);
  const sums = new Float64Array(side);
  for (let i = 0; i < side; i++) {
    sums.fill(0);
    const y0 = down.first[i]! - rowFrom - down.offset[i]!;
    for (let t = down.offset[i]!; t < down.offset[i + 1]!; t++) {
      const weight = down.weights[t]!;
      const row = (y0 + t) * side;
      for (let j = 0; j < side; j++) sums[j]! += weight * partial[row + j]!;
    }
    small.set(sums, i * side);
  }
  return small;
}

/** Reusable buffers (luma, rows filtered across): hashing runs thousands of times a minute and need not churn the allocator. */
let lumaBuffer = new Float32Array(0);
function scratch(length: number): Float32Array {
  if (lumaBuffer.length < length) lumaBuffer = new Float32Array(length);
  return lumaBuffer;
}
let partialBuffer = new Float64Array(0);
function scratchPartial(length: number): Float64Array {
  if (partialBuffer.length < length) partialBuffer = new Float64Array(length);
  return partialBuffer;
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
