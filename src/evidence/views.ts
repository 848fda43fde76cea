/**
 * The derived views, made in the pure core from the decoded pixels: a thumbnail (encoded as JPEG by the decoder)
 * and a blurred view (encoded here as PNG). Making them here costs a fraction of a millisecond, where each extra
 * trip through an image library costs more than the decode it follows.
 */
import { decodeSide, type RawImage } from './image-decoder.js';

/**
 * Long side of thumbnails: that of the decoded picture (decodeSide), so that a photo's thumbnail is its one
 * decode itself, with nothing to resize.
 */
export const thumbnailSide = decodeSide;
/** The blurred view keeps this many pixels on its long side of what the thumbnail shows … */
export const blurredDetail = 12;
/** … and is stored enlarged smoothly to this long side: shown at thumbnail size, a browser enlarges it further. */
export const blurredSide = 48;

/** The size that fits within `side` × `side` keeping the aspect ratio, never enlarged. */
export function fitWithin(width: number, height: number, side: number): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A thumbnail of the picture: long side at most 320 (by area averaging; the decoded picture already is). */
export function thumbnailOf(image: RawImage): RawImage {
  const size = fitWithin(image.width, image.height, thumbnailSide);
  return resizeArea(image, size.width, size.height);
}

/**
 * The thumbnail reduced to 12 pixels on its long side, enlarged back bilinearly to 48 and softened by a box
 * blur: colours and layout remain, nothing that can be recognised (a face, a wound, a number) does. It holds no
 * more than those 12 pixels say, so it is kept small; enlarged for display (as any browser does when it shows it
 * at thumbnail size), it is a smooth blur with no trace of a pixel grid.
 */
export function blurredOf(thumbnail: RawImage): RawImage {
  const target = fitWithin(thumbnail.width, thumbnail.height, blurredDetail);
  // Block means first (k×k, k the power of two halving would reach, dropping a last partial row or column) do
  // most of the reduction in one pass of integer sums.
  let k = 1;
  while (thumbnail.width >= 4 * k * target.width && thumbnail.height >= 4 * k * target.height) k *= 2;
  const tiny = resizeArea(blockMeans(thumbnail, k), target.width, target.height);
  return boxBlur(resizeBilinear(tiny, ...dims(fitWithin(thumbnail.width, thumbnail.height, blurredSide))), 2);
}

function dims(size: { width: number; height: number }): [number, number] {
  return [size.width, size.height];
}

/**
 * Downscaling by area: each output pixel is the mean of the input area it covers (fractional pixels weighted),
 * rows first, then columns. When the output is not smaller, the image is returned as it is.
 */
export function resizeArea(image: RawImage, width: number, height: number): RawImage {
  if (width >= image.width && height >= image.height) return image;
  if (image.width === 2 * width && image.height === 2 * height) return blockMeans(image, 2);
  const { channels } = image;
  const xs = spans(image.width, width);
  const ys = spans(image.height, height);
  // Along rows: image.height × width.
  const rowLength = width * channels;
  const rows = scratchRows(image.height * rowLength);
  if (channels === 3) acrossRgb(image, xs, rows, width);
  else acrossAny(image, xs, rows, width);
  // Along columns: height × width, each output row a weighted sum of whole rows.
  const out = new Uint8Array(height * rowLength);
  const sums = new Float32Array(rowLength);
  for (let oy = 0; oy < height; oy++) {
    const dst = oy * rowLength;
    const from = ys.start[oy]!;
    const to = ys.start[oy + 1]!;
    if (to - from === 2) {
      const a = ys.index[from]! * rowLength;
      const b = ys.index[from + 1]! * rowLength;
      const wa = ys.weight[from]!;
      const wb = ys.weight[from + 1]!;
      for (let i = 0; i < rowLength; i++) out[dst + i] = rows[a + i]! * wa + rows[b + i]! * wb + 0.5;
      continue;
    }
    sums.fill(0.5);
    for (let k = from; k < to; k++) {
      const src = ys.index[k]! * rowLength;
      const w = ys.weight[k]!;
      for (let i = 0; i < rowLength; i++) sums[i]! += rows[src + i]! * w;
    }
    for (let i = 0; i < rowLength; i++) out[dst + i] = sums[i]!;
  }
  return { data: out, width, height, channels };
}

/** The along-rows pass's buffer, reused: views are made for every photo of an ingest. */
let rowsBuffer = new Float32Array(0);
function scratchRows(length: number): Float32Array {
  if (rowsBuffer.length < length) rowsBuffer = new Float32Array(length);
  return rowsBuffer;
}

type Spans = ReturnType<typeof spans>;

/** The along-rows pass of resizeArea for three channels (what the decoder gives), unrolled. */
function acrossRgb(
  image: RawImage,
  { start, index, weight }: Spans,
  rows: Float32Array,
  width: number,
): void {
  const { data } = image;
  const inRow = image.width * 3;
  let o = 0;
  for (let y = 0; y < image.height; y++) {
    const inBase = y * inRow;
    for (let ox = 0; ox < width; ox++) {
      const end = start[ox + 1]!;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = start[ox]!; k < end; k++) {
        const src = inBase + index[k]! * 3;
        const w = weight[k]!;
        r += data[src]! * w;
        g += data[src + 1]! * w;
        b += data[src + 2]! * w;
      }
      rows[o] = r;
      rows[o + 1] = g;
      rows[o + 2] = b;
      o += 3;
    }
  }
}

function acrossAny(
  image: RawImage,
  { start, index, weight }: Spans,
  rows: Float32Array,
  width: number,
): void {
  const { data, channels } = image;
  const inRow = image.width * channels;
  let o = 0;
  for (let y = 0; y < image.height; y++) {
    const inBase = y * inRow;
    for (let ox = 0; ox < width; ox++) {
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = start[ox]!; k < start[ox + 1]!; k++)
          sum += data[inBase + index[k]! * channels + c]! * weight[k]!;
        rows[o++] = sum;
      }
    }
  }
}

/**
 * 1/k of the size: each output pixel is the mean of a k×k block; a last partial row or column of blocks is
 * dropped. Sums are taken along each input row into one row of column sums, read at every k-th row.
 */
function blockMeans(image: RawImage, k: number): RawImage {
  if (k === 1) return image;
  const { channels, data } = image;
  const width = Math.floor(image.width / k);
  const height = Math.floor(image.height / k);
  const rowLength = width * channels;
  const out = new Uint8Array(height * rowLength);
  const sums = new Uint32Array(rowLength);
  const stride = image.width * channels;
  const half = (k * k) >> 1;
  const area = k * k;
  for (let oy = 0; oy < height; oy++) {
    sums.fill(0);
    for (let y = oy * k; y < (oy + 1) * k; y++) {
      let i = y * stride;
      if (channels === 3) {
        for (let ox = 0, o = 0; ox < width; ox++, o += 3) {
          let r = 0;
          let g = 0;
          let b = 0;
          for (let x = 0; x < k; x++, i += 3) {
            r += data[i]!;
            g += data[i + 1]!;
            b += data[i + 2]!;
          }
          sums[o]! += r;
          sums[o + 1]! += g;
          sums[o + 2]! += b;
        }
        continue;
      }
      for (let ox = 0; ox < width; ox++) {
        for (let x = 0; x < k; x++) for (let c = 0; c < channels; c++) sums[ox * channels + c]! += data[i++]!;
      }
    }
    const dst = oy * rowLength;
    for (let o = 0; o < rowLength; o++) out[dst + o] = ((sums[o]! + half) / area) | 0;
  }
  return { data: out, width, height, channels };
}

/** For each output index o, the input indices index[start[o] … start[o+1]) it covers, with weights summing to 1. */
function spans(
  inSize: number,
  outSize: number,
): { start: Int32Array; index: Int32Array; weight: Float32Array } {
  const scale = inSize / outSize;
  const start = new Int32Array(outSize + 1);
  const index: number[] = [];
  const weight: number[] = [];
  for (let o = 0; o < outSize; o++) {
    start[o] = index.length;
    const from = o * scale;
    const to = Math.min(inSize, from + scale);
    for (let i = Math.floor(from); i < to; i++) {
      const cover = Math.min(to, i + 1) - Math.max(from, i);
      if (cover > 1e-9) {
        index.push(i);
        weight.push(cover / (to - from));
      }
    }
  }
  start[outSize] = index.length;
  return { start, index: Int32Array.from(index), weight: Float32Array.from(weight) };
}

/**
 * Bilinear resampling with pixel centres aligned (used to enlarge): each source row that is needed is first
 * interpolated across, then output rows are blends of two such rows.
 */
export function resizeBilinear(image: RawImage, width: number, height: number): RawImage {
  const { channels, data } = image;
  const xs = bilinearTaps(image.width, width);
  const ys = bilinearTaps(image.height, height);
  const rowLength = width * channels;
  // Across: every source row, at the output's columns.
  const across = new Float32Array(image.height * rowLength);
  for (let y = 0; y < image.height; y++) {
    const src = y * image.width * channels;
    let o = y * rowLength;
    for (let x = 0; x < width; x++) {
      const a = src + xs.lower[x]! * channels;
      const b = src + xs.upper[x]! * channels;
      const f = xs.fraction[x]!;
      for (let c = 0; c < channels; c++) across[o++] = data[a + c]! + (data[b + c]! - data[a + c]!) * f;
    }
  }
  const out = new Uint8Array(height * rowLength);
  let o = 0;
  for (let y = 0; y < height; y++) {
    const top = ys.lower[y]! * rowLength;
    const bottom = ys.upper[y]! * rowLength;
    const f = ys.fraction[y]!;
    for (let i = 0; i < rowLength; i++) {
      const t = across[top + i]!;
      out[o++] = (t + (across[bottom + i]! - t) * f + 0.5) | 0;
    }
  }
  return { data: out, width, height, channels };
}

function bilinearTaps(inSize: number, outSize: number) {
  const lower = new Int32Array(outSize);
  const upper = new Int32Array(outSize);
  const fraction = new Float32Array(outSize);
  for (let o = 0; o < outSize; o++) {
    const at = Math.min(inSize - 1, Math.max(0, ((o + 0.5) * inSize) / outSize - 0.5));
    lower[o] = Math.floor(at);
    upper[o] = Math.min(inSize - 1, lower[o]! + 1);
    fraction[o] = at - lower[o]!;
  }
  return { lower, upper, fraction };
}

/** A box blur of the given radius along rows then columns; samples beyond an edge repeat the edge. */
function boxBlur(image: RawImage, radius: number): RawImage {
  const { width, height, channels } = image;
  const across = blur1d(image.data, width, height, channels, radius, true);
  return { data: blur1d(across, width, height, channels, radius, false), width, height, channels };
}

function blur1d(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
  radius: number,
  alongRows: boolean,
): Uint8Array {
  const out = new Uint8Array(data.length);
  const lines = alongRows ? height : width;
  const length = alongRows ? width : height;
  const step = alongRows ? channels : width * channels;
  const lineStep = alongRows ? width * channels : channels;
  const span = 2 * radius + 1;
  // Clamped sample positions for the window, computed once.
  const at = new Int32Array(length + 2 * radius + 1);
  for (let k = 0; k < at.length; k++) at[k] = Math.min(length - 1, Math.max(0, k - radius)) * step;
  for (let line = 0; line < lines; line++) {
    const base = line * lineStep;
    for (let c = 0; c < channels; c++) {
      const b = base + c;
      let sum = 0;
      for (let k = 0; k < span; k++) sum += data[b + at[k]!]!;
      for (let i = 0; i < length; i++) {
        out[b + i * step] = (sum * 2 + span) / (2 * span);
        sum += data[b + at[i + span]!]! - data[b + at[i]!]!;
      }
    }
  }
  return out;
}
