/** Grey pictures and the few operations card reading needs on them. Pure: arrays in, arrays out. */

/** 8-bit grey, 0 black … 255 white, row-major. */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Otsu's threshold of the values (a histogram's best split into two classes); `mask` limits the pixels counted. */
export function otsu(data: Uint8Array, mask?: (i: number) => boolean): number {
  const hist = new Float64Array(256);
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    if (mask && !mask(i)) continue;
    hist[data[i]!]!++;
    n++;
  }
  if (n === 0) return 128;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let v = 0; v < 256; v++) {
    wB += hist[v]!;
    if (wB === 0) continue;
    const wF = n - wB;
    if (wF === 0) break;
    sumB += v * hist[v]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  return threshold;
}

/** The picture shrunk by a whole factor, each pixel the mean of its block. */
export function shrink(g: Gray, factor: number): Gray {
  const width = Math.floor(g.width / factor);
  const height = Math.floor(g.height / factor);
  const data = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * g.width + x * factor;
        for (let dx = 0; dx < factor; dx++) s += g.data[row + dx]!;
      }
      data[y * width + x] = Math.round(s / area);
    }
  }
  return { width, height, data };
}

export interface Component {
  label: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
  /** Sums of x, y, x², y², xy over the pixels (for the centre and orientation). */
  sx: number;
  sy: number;
  sxx: number;
  syy: number;
  sxy: number;
}

/** Connected components (8-neighbours) of the set pixels of a mask; labels 1… in a map of the same size. */
export function components(
  mask: Uint8Array,
  width: number,
  height: number,
): { list: Component[]; labels: Int32Array } {
  const labels = new Int32Array(width * height);
  const list: Component[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    const label = list.length + 1;
    const c: Component = {
      label,
      x0: width,
      y0: height,
      x1: -1,
      y1: -1,
      area: 0,
      sx: 0,
      sy: 0,
      sxx: 0,
      syy: 0,
      sxy: 0,
    };
    labels[start] = label;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      c.area++;
      c.sx += x;
      c.sy += y;
      c.sxx += x * x;
      c.syy += y * y;
      c.sxy += x * y;
      if (x < c.x0) c.x0 = x;
      if (x > c.x1) c.x1 = x;
      if (y < c.y0) c.y0 = y;
      if (y > c.y1) c.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const j = yy * width + xx;
          if (mask[j] && !labels[j]) {
            labels[j] = label;
            stack.push(j);
          }
        }
      }
    }
    list.push(c);
  }
  return { list, labels };
}

/** A component's orientation (radians, of its long axis) and the spread along and across it (variances). */
export function orientation(c: Component): {
  angle: number;
  cx: number;
  cy: number;
  major: number;
  minor: number;
} {
  const cx = c.sx / c.area;
  const cy = c.sy / c.area;
  const mxx = c.sxx / c.area - cx * cx;
  const myy = c.syy / c.area - cy * cy;
  const mxy = c.sxy / c.area - cx * cy;
  const angle = 0.5 * Math.atan2(2 * mxy, mxx - myy);
  const common = Math.sqrt(((mxx - myy) / 2) ** 2 + mxy * mxy);
  return { angle, cx, cy, major: (mxx + myy) / 2 + common, minor: (mxx + myy) / 2 - common };
}

/**
 * A rotated region resampled upright (bilinear): the output pixel (u, v) is taken from the source at the centre
 * (cx, cy) plus (u − w/2, v − h/2)·step turned by `angle`. Outside the source is white.
 */
export function uprightRegion(
  g: Gray,
  region: { cx: number; cy: number; angle: number; width: number; height: number; step: number },
): Gray {
  const { cx, cy, angle, width, height, step } = region;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const data = new Uint8Array(width * height);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const du = (u - width / 2) * step;
      const dv = (v - height / 2) * step;
      const x = cx + du * cos - dv * sin;
      const y = cy + du * sin + dv * cos;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= g.width || y0 + 1 >= g.height) {
        data[v * width + u] = 255;
        continue;
      }
      const fx = x - x0;
      const fy = y - y0;
      const i = y0 * g.width + x0;
      const a = g.data[i]! * (1 - fx) + g.data[i + 1]! * fx;
      const b = g.data[i + g.width]! * (1 - fx) + g.data[i + g.width + 1]! * fx;
      data[v * width + u] = Math.round(a * (1 - fy) + b * fy);
    }
  }
  return { width, height, data };
}

/**
 * Ruling made white, in place: dark runs (Otsu's threshold) longer than `across` pixels in a row or `down` in a
 * column. Runs bridge gaps of up to `bridge` pixels (noise breaks a thin rule) but must stay nearly solid (a pixel
 * row through a word's tight glyphs has many more gaps); a rule's anti-aliased edge, the pixels beside the run,
 * goes with it.
 */
export function wipeRuling(g: Gray, across: number, down: number, bridge: number): void {
  const { width, height, data } = g;
  const t = otsu(data);
  const wipe: number[] = [];
  const runs = (n: number, m: number, at: (i: number, j: number) => number, limit: number) => {
    for (let i = 0; i < n; i++) {
      let start = -1;
      let lastDark = -1;
      let darkCount = 0;
      for (let j = 0; j <= m; j++) {
        const dark = j < m && data[at(i, j)]! < t;
        if (dark) {
          if (start < 0) {
            start = j;
            darkCount = 0;
          }
          lastDark = j;
          darkCount++;
        } else if (start >= 0 && (j === m || j - lastDark > bridge)) {
          const length = lastDark - start + 1;
          if (length > limit && darkCount >= 0.85 * length)
            for (let k = start; k <= lastDark; k++)
              for (const e of [i - 1, i, i + 1]) if (e >= 0 && e < n) wipe.push(at(e, k));
          start = -1;
        }
      }
    }
  };
  runs(height, width, (r, c) => r * width + c, across);
  runs(width, height, (c, r) => r * width + c, down);
  for (const i of wipe) data[i] = 255;
}
