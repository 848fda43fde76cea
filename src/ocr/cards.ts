/**
 * Reading a body photo's card (docs/ocr.md, "Cards"): find the card (the largest bright, rectangular region), turn
 * it upright, lay its ink out as lines, read the number on each line with the glyph classifier, and parse the lines
 * top to bottom as branch, detainee and examination numbers. No card, or not three numbers: no proposal, and the
 * reason. Pure.
 */
import type { Box } from './engine.js';
import {
  type Classified,
  classify,
  type Glyph,
  type Line,
  layout,
  type Template,
  type Word,
} from './glyphs.js';
import { components, type Gray, orientation, otsu, shrink, uprightRegion } from './raster.js';

export const cardParts = ['branch', 'detainee_number', 'examination_number'] as const;
export type CardPart = (typeof cardParts)[number];

export interface CardField {
  part: CardPart;
  /** As read: digits in the card's own script, a letter after a slash ("1234/ب"). */
  value: string;
  /** 0–1: the least certain glyph of the number. */
  confidence: number;
  /** Where the number is, in pixels of the picture as displayed. */
  box: Box;
}

export type CardMiss = 'no_card' | 'no_numbers' | 'unclear_numbers';

export type CardReading =
  | { found: true; fields: CardField[]; card: Box; angle: number; labelled: boolean }
  | { found: false; reason: CardMiss; card?: Box };

interface Located {
  cx: number;
  cy: number;
  angle: number;
  length: number;
  width: number;
}

/** The card in a small copy of the photo, in that copy's pixels, or null. */
export function locateCard(small: Gray): Located | null {
  const t1 = otsu(small.data);
  const t2 = otsu(small.data, (i) => small.data[i]! > t1);
  let best: (Located & { area: number }) | null = null;
  for (const t of [t2, Math.round((t1 + t2) / 2), t1]) {
    const mask = new Uint8Array(small.data.length);
    for (let i = 0; i < mask.length; i++) mask[i] = small.data[i]! > t ? 1 : 0;
    const { list, labels } = components(mask, small.width, small.height);
    for (const c of list) {
      if (c.area < small.data.length * 0.015) continue;
      const o = orientation(c);
      const cos = Math.cos(o.angle);
      const sin = Math.sin(o.angle);
      let uMin = Infinity;
      let uMax = -Infinity;
      let vMin = Infinity;
      let vMax = -Infinity;
      for (let y = c.y0; y <= c.y1; y++) {
        for (let x = c.x0; x <= c.x1; x++) {
          if (labels[y * small.width + x] !== c.label) continue;
          const u = (x - o.cx) * cos + (y - o.cy) * sin;
          const v = -(x - o.cx) * sin + (y - o.cy) * cos;
          if (u < uMin) uMin = u;
          if (u > uMax) uMax = u;
          if (v < vMin) vMin = v;
          if (v > vMax) vMax = v;
        }
      }
      // A rectangle's spread along an axis is length²/12: sizes from the moments are steadier than the extremes.
      const length = Math.min(uMax - uMin + 1, Math.sqrt(12 * o.major));
      const width = Math.min(vMax - vMin + 1, Math.sqrt(12 * o.minor));
      const fill = c.area / ((uMax - uMin + 1) * (vMax - vMin + 1));
      const aspect = length / width;
      if (fill < 0.8 || aspect < 1.15 || aspect > 2.4) continue;
      if (!best || c.area > best.area)
        best = { cx: o.cx, cy: o.cy, angle: o.angle, length, width, area: c.area };
    }
    if (best) break;
  }
  return best;
}

const latinDigits = '0123456789';
const arabicDigits = '٠١٢٣٤٥٦٧٨٩';
const isDigit = (c: string) => latinDigits.includes(c) || arabicDigits.includes(c);
/** Beyond this distance to its nearest template a shape is no character of a card's numbers. */
export const glyphFar = 0.09;

interface ReadNumber {
  value: string;
  confidence: number;
  box: Box;
  hasLetter: boolean;
}

function glyphConfidence(d1: number, d2: number): number {
  if (!Number.isFinite(d2)) return 0;
  const margin = 1 - d1 / Math.max(d2, 1e-9);
  return Math.max(0, Math.min(1, margin * Math.exp(-d1 / 0.02)));
}

/** A word as a card number, or null: every glyph a card character, digits of one script, at most one letter. */
function readWord(
  word: Word,
  templates: readonly Template[],
  band: { top: number; bottom: number },
): ReadNumber | null {
  const read = word.glyphs.map((g: Glyph) => ({ g, c: classifyIn(g, templates, band) }));
  if (read.some((r) => r.c.distance > glyphFar)) return null;
  const chars = read.map((r) => r.c.char);
  const digits = chars.filter(isDigit);
  if (digits.length === 0) return null;
  const latin = digits.filter((d) => latinDigits.includes(d)).length;
  if (latin !== 0 && latin !== digits.length) return null;
  const letters = chars.filter((c) => c === 'ب' || c === 'ج');
  const slashes = chars.filter((c) => c === '/');
  if (letters.length > 1 || slashes.length > 1) return null;
  if (letters.length !== slashes.length) return null;
  // Digits in one run, the letter and slash at one end (either end: the card may be written either way).
  const run = chars.join('');
  const m = /^([^/بج]+)\/([بج])$/.exec(run) ?? /^([بج])\/([^/بج]+)$/.exec(run);
  let value: string;
  if (letters.length === 1) {
    if (!m) return null;
    const number = isDigit(m[1]![0]!) ? m[1]! : m[2]!;
    const letter = isDigit(m[1]![0]!) ? m[2]! : m[1]!;
    value = `${number}/${letter}`;
  } else {
    if (!/^[0-9٠-٩]+$/.test(run)) return null;
    value = run;
  }
  const confidence = Math.min(...read.map((r) => glyphConfidence(r.c.distance, r.c.other)));
  return { value, confidence, box: word.box, hasLetter: letters.length === 1 };
}

/**
 * The glyph's character. Arabic-Indic zero (٠) is a dot, too small for the template grid to tell: a compact shape
 * under half the height of the line's digits, in their middle band, is read as ٠ (with a fixed distance).
 */
function classifyUncached(
  g: Glyph,
  templates: readonly Template[],
  band: { top: number; bottom: number },
): Classified {
  const h = band.bottom - band.top;
  const aspect = g.box.width / g.box.height;
  const mid = g.box.y + g.box.height / 2;
  if (
    h > 0 &&
    g.box.height < 0.45 * h &&
    aspect > 0.5 &&
    aspect < 2 &&
    mid > band.top + 0.3 * h &&
    mid < band.bottom - 0.2 * h
  )
    return { char: '٠', distance: 0.03, other: 0.09 };
  return classify(g.features, templates);
}
/** Each glyph is classified once (a line's stretches look at the same glyphs many times). */
const classified = new WeakMap<Glyph, Classified>();
function classifyIn(
  g: Glyph,
  templates: readonly Template[],
  band: { top: number; bottom: number },
): Classified {
  let c = classified.get(g);
  if (!c) {
    c = classifyUncached(g, templates, band);
    classified.set(g, c);
  }
  return c;
}

/** The band of a line's tall glyphs: the median top and bottom of those at least 0.6 of the tallest. */
function bandOf(glyphs: readonly Glyph[]): { top: number; bottom: number } {
  const tallest = Math.max(...glyphs.map((g) => g.box.height));
  const tall = glyphs.filter((g) => g.box.height >= 0.6 * tallest);
  const tops = tall.map((g) => g.box.y).sort((a, b) => a - b);
  const bottoms = tall.map((g) => g.box.y + g.box.height).sort((a, b) => a - b);
  return { top: tops[Math.floor(tops.length / 2)]!, bottom: bottoms[Math.floor(bottoms.length / 2)]! };
}

/** A word of a picture read with the card glyph classifier: its characters and its least certain glyph's confidence. */
export interface GlyphWord {
  text: string;
  confidence: number;
  box: Box;
}

/**
 * The words of a small upright picture (a registry row's cell) whose every glyph is near a card character's template
 * (digits, "/", ب, ج), left to right on each line, top to bottom; a word with any other shape is left out. Used where
 * tesseract reads digits as noise (Arabic-Indic digits).
 */
export function readGlyphWords(picture: Gray, templates: readonly Template[]): GlyphWord[] {
  const out: GlyphWord[] = [];
  for (const line of layout(picture, { margin: 1 })) {
    const band = bandOf(line.words.flatMap((w) => w.glyphs));
    for (const w of line.words) {
      const read = w.glyphs.map((g) => classifyIn(g, templates, band));
      if (read.some((r) => r.distance > glyphFar)) continue;
      out.push({
        text: read.map((r) => r.char).join(''),
        confidence: Math.min(...read.map((r) => glyphConfidence(r.distance, r.other))),
        box: w.box,
      });
    }
  }
  return out;
}

/**
 * The stretches of a line that could be its number: every run of consecutive glyphs near a card character's
 * template whose digits stand at a steady pitch (none over 1.5 times the median, centre to centre) and apart from what is beside them (a gap over 1.5 times theirs and a quarter of their height, or the
 * line's end). A label written close to its number is left out this way; a number with one glyph unread is not
 * shortened into another number, since the unread glyph stands as close as the others.
 */
function runsOf(line: Word, templates: readonly Template[]): Word[] {
  const band = bandOf(line.glyphs);
  const read = line.glyphs.map((g) => classifyIn(g, templates, band));
  const n = line.glyphs.length;
  const gap = (i: number) => line.glyphs[i + 1]!.box.x - (line.glyphs[i]!.box.x + line.glyphs[i]!.box.width);
  const out: Word[] = [];
  for (let from = 0; from < n; from++) {
    for (let to = from; to < n; to++) {
      if (read[to]!.distance > glyphFar) break;
      const glyphs = line.glyphs.slice(from, to + 1);
      const inner: number[] = [];
      for (let i = from; i < to; i++) inner.push(gap(i));
      const sorted = [...inner].sort((a, b) => a - b);
      const spacing = Math.max(2, sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0);
      const height = Math.max(...glyphs.map((g) => g.box.height));
      // Digits stand at a steady pitch (centre to centre: fonts and hands give digits one width); a gap between
      // other glyphs stays under half the height.
      const centre = (i: number) => line.glyphs[i]!.box.x + line.glyphs[i]!.box.width / 2;
      const pitches: number[] = [];
      for (let i = from; i < to; i++)
        if (isDigit(read[i]!.char) && isDigit(read[i + 1]!.char)) pitches.push(centre(i + 1) - centre(i));
      const pitch = [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 2)] ?? 0;
      if (pitches.some((p) => p > 1.5 * pitch)) break;
      let uneven = false;
      for (let i = from; i < to; i++) {
        if (!(isDigit(read[i]!.char) && isDigit(read[i + 1]!.char)) && gap(i) > 0.5 * height) uneven = true;
      }
      if (uneven) break;
      const widths = glyphs.map((g) => g.box.width).sort((a, b) => a - b);
      const width = widths[Math.floor(widths.length / 2)]!;
      // Beside a label's word (a shape no template knows, or one far wider than a digit: letters joined), even
      // touching: labels are written close to their numbers.
      const label = (i: number) => read[i]!.distance > glyphFar || line.glyphs[i]!.box.width > 1.8 * width;
      const apart = (g: number, i: number) => g > Math.max(1.5 * spacing, 0.25 * height) || label(i);
      if (from > 0 && !apart(gap(from - 1), from - 1)) continue;
      if (to < n - 1 && !apart(gap(to), to + 1)) continue;
      const x0 = Math.min(...glyphs.map((g) => g.box.x));
      const y0 = Math.min(...glyphs.map((g) => g.box.y));
      const x1 = Math.max(...glyphs.map((g) => g.box.x + g.box.width));
      const y1 = Math.max(...glyphs.map((g) => g.box.y + g.box.height));
      out.push({ glyphs, box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } });
    }
  }
  return out;
}

/** A line's number (the word read best as one, the one with the most digits), and whether other words stand by it. */
function readLine(
  line: Line,
  templates: readonly Template[],
): { number: ReadNumber | null; labelled: boolean } {
  let best: { n: ReadNumber; w: Word } | null = null;
  const all: Word = { box: line.box, glyphs: line.words.flatMap((w) => w.glyphs) };
  const band = bandOf(all.glyphs);
  for (const w of runsOf(all, templates)) {
    const n = readWord(w, templates, band);
    if (!n) continue;
    // Numbers on cards are written without leading zeros.
    if (/^[0٠]/.test(n.value)) continue;
    const len = n.value.replace(/\/.*/, '').length;
    if (!best || len > best.n.value.replace(/\/.*/, '').length) best = { n, w };
  }
  if (!best) return { number: null, labelled: line.words.length > 1 };
  // What the reading leaves beside the number makes it less certain: a glyph close by (part of the number
  // unread?), or a slash or letter of the card's characters left out (the examination number's letter?).
  const first = all.glyphs.indexOf(best.w.glyphs[0]!);
  const last = all.glyphs.indexOf(best.w.glyphs[best.w.glyphs.length - 1]!);
  const height = Math.max(...best.w.glyphs.map((g) => g.box.height));
  let factor = 1;
  const widths = best.w.glyphs.map((g) => g.box.width).sort((a, b) => a - b);
  const width = widths[Math.floor(widths.length / 2)]!;
  const near = (g: Glyph, gap: number) => {
    const isLabel = classifyIn(g, templates, band).distance > glyphFar || g.box.width > 1.8 * width;
    return isLabel ? Math.max(0.7, Math.min(1, gap / height)) : Math.min(1, (gap / height) ** 2);
  };
  if (first > 0) {
    const g = all.glyphs[first - 1]!;
    factor *= near(g, best.w.glyphs[0]!.box.x - (g.box.x + g.box.width));
  }
  if (last < all.glyphs.length - 1) {
    const g = all.glyphs[last + 1]!;
    const end = best.w.glyphs[best.w.glyphs.length - 1]!;
    factor *= near(g, g.box.x - (end.box.x + end.box.width));
  }
  const outside = all.glyphs.filter((_, i) => i < first || i > last);
  if (outside.some((g) => classifyIn(g, templates, band).char === '/')) factor *= 0.2;
  // One or two digits are rare on cards (branches have three): more often a longer number read in part.
  if (best.n.value.replace(/\/.*/, '').length <= 2) factor *= 0.3;
  const number = { ...best.n, confidence: best.n.confidence * factor };
  return { number, labelled: line.words.length > 1 };
}

/** The card's pixel height once upright: its numbers are then 40–50 pixels tall. */
const uprightHeight = 240;

/**
 * Reads one photo (grey, as displayed). The card is looked for in a copy shrunk to about 256 pixels on the long side,
 * then resampled upright from the full picture.
 */
export function readCard(photo: Gray, templates: readonly Template[]): CardReading {
  const factor = Math.max(1, Math.floor(Math.max(photo.width, photo.height) / 256));
  const small = shrink(photo, factor);
  const located = locateCard(small);
  if (!located) return { found: false, reason: 'no_card' };
  const cx = (located.cx + 0.5) * factor - 0.5;
  const cy = (located.cy + 0.5) * factor - 0.5;
  const length = located.length * factor * 0.97;
  const width = located.width * factor * 0.97;
  const step = width / uprightHeight;
  const outW = Math.round(length / step);
  const upright = uprightRegion(photo, {
    cx,
    cy,
    angle: located.angle,
    width: outW,
    height: uprightHeight,
    step,
  });
  const cos = Math.cos(located.angle);
  const sin = Math.sin(located.angle);
  const toPhoto = (b: Box): Box => {
    // The box's corners back in the photo; the box that holds them.
    const pts = [
      [b.x, b.y],
      [b.x + b.width, b.y],
      [b.x, b.y + b.height],
      [b.x + b.width, b.y + b.height],
    ].map(([u, v]) => {
      const du = (u! - outW / 2) * step;
      const dv = (v! - uprightHeight / 2) * step;
      return [cx + du * cos - dv * sin, cy + du * sin + dv * cos] as const;
    });
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const x = Math.max(0, Math.floor(Math.min(...xs)));
    const y = Math.max(0, Math.floor(Math.min(...ys)));
    return {
      x,
      y,
      width: Math.min(photo.width, Math.ceil(Math.max(...xs))) - x,
      height: Math.min(photo.height, Math.ceil(Math.max(...ys))) - y,
    };
  };
  const card = toPhoto({ x: 0, y: 0, width: outW, height: uprightHeight });
  const lines = layout(upright, { margin: 2 }).map((l) => readLine(l, templates));
  const numbered = lines.filter((l) => l.number);
  if (numbered.length === 0) return { found: false, reason: 'no_numbers', card };
  if (numbered.length !== 3) return { found: false, reason: 'unclear_numbers', card };
  const numbers = numbered.map((l) => l.number!);
  // Only the examination number carries a letter.
  if (numbers[0]!.hasLetter || numbers[1]!.hasLetter)
    return { found: false, reason: 'unclear_numbers', card };
  return {
    found: true,
    card,
    angle: (located.angle * 180) / Math.PI,
    labelled: numbered.some((l) => l.labelled),
    fields: numbers.map((n, i) => ({
      part: cardParts[i]!,
      value: n.value,
      confidence: n.confidence,
      box: toPhoto(n.box),
    })),
  };
}
