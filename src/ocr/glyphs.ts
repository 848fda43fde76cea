/**
 * Text on an upright, binarised picture as lines of words of glyphs, and a small glyph classifier for the
 * characters cards carry (Latin and Arabic-Indic digits, "/", the letters ب and ج), by nearest templates. Pure.
 */
import type { Box } from './engine.js';
import { type Component, components, type Gray, otsu } from './raster.js';

export const grid = 12;

export interface Glyph {
  box: Box;
  /** The components it is made of (a letter and its dots). */
  parts: Component[];
  features: Float32Array;
}

export interface Word {
  box: Box;
  glyphs: Glyph[];
}

export interface Line {
  box: Box;
  words: Word[];
}

const boxOf = (cs: readonly { x0: number; y0: number; x1: number; y1: number }[]): Box => {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const c of cs) {
    x0 = Math.min(x0, c.x0);
    y0 = Math.min(y0, c.y0);
    x1 = Math.max(x1, c.x1);
    y1 = Math.max(y1, c.y1);
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
};

/**
 * The ink of an upright picture (dark on light, Otsu's threshold) as lines, top to bottom, of words, left to right,
 * of glyphs. Components touching the border are dropped (the card's edge, something covering a corner), and so is
 * speckle smaller than a fraction of the typical glyph.
 */
export function layout(g: Gray, options: { margin?: number } = {}): Line[] {
  const t = otsu(g.data);
  const mask = new Uint8Array(g.data.length);
  for (let i = 0; i < mask.length; i++) mask[i] = g.data[i]! < t ? 1 : 0;
  const { list, labels } = components(mask, g.width, g.height);
  const m = options.margin ?? 1;
  let cs = list.filter(
    (c) => c.x0 >= m && c.y0 >= m && c.x1 < g.width - m && c.y1 < g.height - m && c.area >= 4,
  );
  if (cs.length === 0) return [];
  const heights = cs.map((c) => c.y1 - c.y0 + 1).sort((a, b) => a - b);
  const tall = heights[Math.floor(heights.length * 0.8)]!;
  cs = cs.filter((c) => c.area >= Math.max(6, (tall * tall) / 400));
  // Lines: the tall components (at least a third of the typical height) by vertical overlap; the small ones join
  // the line they overlap most.
  const big = cs.filter((c) => c.y1 - c.y0 + 1 >= tall / 3).sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const lines: { y0: number; y1: number; parts: Component[] }[] = [];
  for (const c of big) {
    const h = c.y1 - c.y0 + 1;
    const line = lines.find((l) => {
      const overlap = Math.min(l.y1, c.y1) - Math.max(l.y0, c.y0) + 1;
      return overlap >= 0.5 * Math.min(h, l.y1 - l.y0 + 1);
    });
    if (line) {
      line.parts.push(c);
      line.y0 = Math.min(line.y0, c.y0);
      line.y1 = Math.max(line.y1, c.y1);
    } else lines.push({ y0: c.y0, y1: c.y1, parts: [c] });
  }
  for (const c of cs) {
    if (c.y1 - c.y0 + 1 >= tall / 3) continue;
    let best: (typeof lines)[number] | undefined;
    let bestOverlap = 0;
    for (const l of lines) {
      const overlap = Math.min(l.y1 + (l.y1 - l.y0) / 3, c.y1) - Math.max(l.y0 - (l.y1 - l.y0) / 3, c.y0) + 1;
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = l;
      }
    }
    best?.parts.push(c);
  }
  return lines.sort((a, b) => a.y0 - b.y0).map((l) => lineOf(l.parts, l.y1 - l.y0 + 1, labels, g.width));
}

function lineOf(parts: Component[], lineHeight: number, labels: Int32Array, width: number): Line {
  // Glyphs: components whose horizontal extents overlap (a letter and its dots, "ج" and its dot).
  const sorted = [...parts].sort((a, b) => a.x0 - b.x0);
  const groups: Component[][] = [];
  for (const c of sorted) {
    const last = groups[groups.length - 1];
    if (last) {
      const b = boxOf(last);
      const overlap = Math.min(b.x + b.width - 1, c.x1) - Math.max(b.x, c.x0) + 1;
      const narrower = Math.min(b.width, c.x1 - c.x0 + 1);
      if (overlap >= 0.5 * narrower) {
        last.push(c);
        continue;
      }
    }
    groups.push([c]);
  }
  const glyphs = groups.map((g) => ({ box: boxOf(g), parts: g, features: new Float32Array(0) }));
  // Words: split where the gap is wider than 0.6 of the line's height.
  const words: Word[] = [];
  for (const glyph of glyphs) {
    const last = words[words.length - 1];
    const prev = last?.glyphs[last.glyphs.length - 1];
    if (last && prev && glyph.box.x - (prev.box.x + prev.box.width) < 0.6 * lineHeight)
      last.glyphs.push(glyph);
    else words.push({ box: glyph.box, glyphs: [glyph] });
  }
  for (const w of words) {
    w.box = boxOf(w.glyphs.flatMap((g) => g.parts));
    // Heights are weighed against the word's median glyph: a line's labels may reach lower than its number.
    const hs = w.glyphs.map((g) => g.box.height).sort((a, b) => a - b);
    const median = hs[Math.floor(hs.length / 2)]!;
    for (const g of w.glyphs) g.features = featuresOf(g.box, g.parts, labels, width, median);
  }
  return { box: boxOf(parts), words };
}

/**
 * A glyph's features: its ink in a 12×12 grid over its box (aspect kept, centred), then its aspect (log w/h), its
 * height and the height of its centre against the line's height.
 */
export function featuresOf(
  box: Box,
  parts: readonly Component[],
  labels: Int32Array,
  width: number,
  lineHeight: number,
): Float32Array {
  const f = new Float32Array(grid * grid + 3);
  const own = new Set(parts.map((p) => p.label));
  const side = Math.max(box.width, box.height);
  const ox = box.x - (side - box.width) / 2;
  const oy = box.y - (side - box.height) / 2;
  const cell = side / grid;
  const counts = new Float32Array(grid * grid);
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      if (!own.has(labels[y * width + x]!)) continue;
      const gx = Math.min(grid - 1, Math.floor((x + 0.5 - ox) / cell));
      const gy = Math.min(grid - 1, Math.floor((y + 0.5 - oy) / cell));
      counts[gy * grid + gx]!++;
    }
  }
  const area = cell * cell;
  for (let i = 0; i < grid * grid; i++) f[i] = Math.min(1, counts[i]! / area);
  f[grid * grid] = Math.log(box.width / box.height);
  f[grid * grid + 1] = box.height / lineHeight;
  f[grid * grid + 2] = 0;
  return f;
}

export interface Template {
  char: string;
  features: Float32Array;
}

/** The characters a card's numbers are written with. */
export const cardCharacters = '0123456789٠١٢٣٤٥٦٧٨٩/بج';

export interface Classified {
  char: string;
  /** Distance to the nearest template, and to the nearest of another character. */
  distance: number;
  other: number;
}

function distance(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = grid * grid;
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    s += d * d;
  }
  s /= n;
  const da = a[n]! - b[n]!;
  const dh = a[n + 1]! - b[n + 1]!;
  return s + 0.05 * da * da + 0.1 * dh * dh;
}

/** The nearest template's character, with the margin to the nearest other character. */
export function classify(features: Float32Array, templates: readonly Template[]): Classified {
  const best = new Map<string, number>();
  for (const t of templates) {
    const d = distance(features, t.features);
    const known = best.get(t.char);
    if (known === undefined || d < known) best.set(t.char, d);
  }
  let char = '';
  let d1 = Infinity;
  let d2 = Infinity;
  for (const [c, d] of best) {
    if (d < d1) {
      d2 = d1;
      d1 = d;
      char = c;
    } else if (d < d2) d2 = d;
  }
  return { char, distance: d1, other: d2 };
}

/** Templates as stored (src/ocr/glyph-templates.ts): a character, then the grid in hex (one digit a cell, 0–15), log aspect, height. */
export function decodeTemplates(packed: readonly (readonly [string, string])[]): Template[] {
  return packed.map(([char, hex]) => {
    const f = new Float32Array(grid * grid + 3);
    for (let i = 0; i < grid * grid; i++) f[i] = Number.parseInt(hex[i]!, 16) / 15;
    const tail = hex.slice(grid * grid).split(',');
    f[grid * grid] = Number(tail[1]);
    f[grid * grid + 1] = Number(tail[2]);
    return { char, features: f };
  });
}

export function encodeTemplate(char: string, f: Float32Array): readonly [string, string] {
  let hex = '';
  for (let i = 0; i < grid * grid; i++) hex += Math.round(f[i]! * 15).toString(16);
  return [char, `${hex},${f[grid * grid]!.toFixed(3)},${f[grid * grid + 1]!.toFixed(3)}`];
}
