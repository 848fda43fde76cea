/**
 * Scanned registries (docs/ocr.md): the words an engine read on one page, put back into the page's rows and each
 * row parsed into a proposed record — the full name (split into parts by the names module), the row number, the
 * detainee number and a date — with the row's box and a confidence. Pure: no I/O.
 *
 * Why rows are rebuilt here: with automatic page segmentation tesseract reads a ruled table column by column (the
 * names as one block, the numbers as another), so its own lines never hold a whole row. Rows are found again from
 * geometry: the page's skew is estimated (the slope at which the words' centres stack up most sharply), the
 * words' centres are straightened by it, and words whose straightened centres lie within about half a word's
 * height of each other are one row.
 */
import { identifierKey } from '../evidence/identifiers.js';
import { formatDate, parseDate } from '../linkage/dates.js';
import { parseParts } from '../names/parse.js';
import { readGlyphWords } from './cards.js';
import type { Box, OcrWord } from './engine.js';
import type { Template } from './glyphs.js';
import { type Gray, wipeRuling } from './raster.js';

/** A proposed record's fields, as read (API names; dates as YYYY-MM-DD or shorter). */
export interface RowFields {
  fullName?: string;
  firstName?: string;
  fatherName?: string;
  grandfatherName?: string;
  familyName?: string;
  /** The row's own number on the list (its place, not an identifier of the person). */
  rowNumber?: string;
  detaineeNumber?: string;
  /** A date in the row; which date it is comes from the page's heading (`PageRows.dateColumn`), if it says. */
  date?: string;
}

export type RowField = keyof RowFields;

export interface ProposedRow {
  /** 1-based, top to bottom, among the rows proposed on this page. */
  index: number;
  /** The whole row: every word kept, in pixels of the image the engine was given. */
  box: Box;
  /** The name's words. */
  nameBox: Box;
  /** The row as read, right to left, for the reviewer. */
  text: string;
  fields: RowFields;
  /** Per field, 0–1: the engine's confidence in its words (the name: the mean of its words). */
  fieldConfidence: Partial<Record<RowField, number>>;
  /** The row's: its name's, lowered when the row has no number or date (it may not be a row of the list). */
  confidence: number;
}

export type DateColumn = 'arrest_date' | 'death_date' | 'birth_date';

export interface PageRows {
  rows: ProposedRow[];
  /** The skew found, as a slope (dy/dx); about ±0.026 for ±1.5°. */
  skew: number;
  /** What the page's headings say its dates are, when they say. */
  dateColumn: DateColumn | null;
  /** Lines found that were not proposed (a title, a heading, a stamp, noise). */
  skipped: number;
}

type TokenKind = 'word' | 'number' | 'date' | 'unclear';

interface Token {
  text: string;
  kind: TokenKind;
  confidence: number;
  box: Box;
  cx: number;
  /** The straightened centre. */
  cy: number;
  /** Read below `minConfidence`: kept only as a word of a name that has two surer words. */
  weak?: boolean;
  /** The engine's line key. */
  line: string;
}

/**
 * Tesseract now and then gives the last word of a line a box reaching back over the words before it (القاسم as wide
 * as the whole name): its centre then stands among them, and the name is read out of order (مصطفى عبد القاسم
 * الرحمن), and the words it covers look like ink read twice. Its left edge is right: within each of the engine's
 * lines, a box is cut back to the left edge of the word on its right.
 */
function trimWideBoxes(tokens: Token[]): void {
  const byLine = new Map<string, Token[]>();
  for (const t of tokens) byLine.set(t.line, [...(byLine.get(t.line) ?? []), t]);
  for (const line of byLine.values()) {
    line.sort((a, b) => b.box.x - a.box.x);
    for (let i = 1; i < line.length; i++) {
      const t = line[i]!;
      const right = line[i - 1]!.box.x;
      // Only a box covering most of its neighbour: words touching or slightly overlapping stay as read.
      if (t.box.x + t.box.width - right > 0.5 * line[i - 1]!.box.width && right > t.box.x)
        t.box = { ...t.box, width: right - t.box.x };
    }
  }
}

const arabicLetter = /[\u0621-\u064a\u0671-\u06d3]/u;
const edgeJunk = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}/]+$/gu;
const tatweelAndMarks = /[\u0640\u064b-\u0652]/gu;

/** Digits folded to ASCII (Arabic-Indic and Eastern Arabic-Indic), nothing else changed. */
export function foldDigits(text: string): string {
  return text
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0));
}

function classify(raw: string): { text: string; kind: TokenKind } | null {
  const text = raw.normalize('NFC').replace(edgeJunk, '');
  if (!text) return null;
  const folded = foldDigits(text);
  if (/^\d{1,2}[/.-]\d{1,2}[/.-]\d{4}$|^\d{4}[/.-]\d{1,2}[/.-]\d{1,2}$/.test(folded)) {
    const parsed = parseDate(folded.replace(/^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/, '$1-$2-$3'));
    return parsed.kind === 'date'
      ? { text: formatDate(parsed.date), kind: 'date' }
      : { text, kind: 'unclear' };
  }
  if (/^\d+$/.test(folded)) return { text: folded, kind: 'number' };
  // A number with its letter (1234/ب), as cards and registers write examination numbers.
  if (/^\d+\/[\u0621-\u064a]$/u.test(folded)) return { text: folded, kind: 'number' };
  const letters = [...text].filter((c) => arabicLetter.test(c)).length;
  if (letters > 0 && letters === [...text.replace(tatweelAndMarks, '')].length)
    return { text: text.replace(/\u0640/g, ''), kind: 'word' };
  if (/\d/.test(folded) || letters > 0) return { text, kind: 'unclear' };
  return null;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The slope that makes the words' centres stack up most sharply: for each candidate slope (−0.04…0.04 by 0.001),
 * the centres are straightened and every pair closer than three `spread` scores by a Gaussian of their distance.
 */
export function estimateSkew(
  points: readonly { x: number; y: number; weight: number }[],
  spread: number,
): number {
  if (points.length < 4 || spread <= 0) return 0;
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  let best = 0;
  let bestScore = -1;
  for (let k = -40; k <= 40; k++) {
    const slope = k * 0.001;
    const ys = points.map((p) => ({ y: p.y - slope * (p.x - cx), w: p.weight })).sort((a, b) => a.y - b.y);
    let score = 0;
    for (let i = 0; i < ys.length; i++) {
      for (let j = i + 1; j < ys.length; j++) {
        const d = ys[j]!.y - ys[i]!.y;
        if (d > 3 * spread) break;
        score += ys[i]!.w * ys[j]!.w * Math.exp(-(d * d) / (2 * spread * spread));
      }
    }
    if (score > bestScore * (1 + 1e-9)) {
      bestScore = score;
      best = slope;
    }
  }
  return best;
}

function union(boxes: readonly Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Words of a register's title and column headings, never of a name. */
const headingWords: ReadonlySet<string> = new Set(
  'قائمة قائمه بأسماء أسماء اسماء بأسماء الأسماء الاسماء الاسم اسم الرقم رقم التسلسل تسلسل تاريخ الموقوفين المعتقلين الموقوف المعتقل ملاحظات الملاحظات'.split(
    ' ',
  ),
);

/** Words the engine gave less than this are left out: at that level it is guessing. */
const minConfidence = 0.2;

/** The glyph classifier's words below this are left out. */
const minGlyphConfidence = 0.03;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The date column a page's headings name (تاريخ الاعتقال / التوقيف, الوفاة, الولادة / الميلاد), if one. */
function dateColumnOf(words: readonly OcrWord[]): DateColumn | null {
  const text = words.map((w) => w.text.replace(tatweelAndMarks, '')).join(' ');
  if (/الاعتقال|التوقيف|القبض/u.test(text)) return 'arrest_date';
  if (/الوفاة|الوفاه|الموت/u.test(text)) return 'death_date';
  if (/الولادة|الولاده|الميلاد|التولد/u.test(text)) return 'birth_date';
  return null;
}

/**
 * The rows of one page from the words an engine read on it. A row is proposed when it carries a name of at least
 * two words and a number or a date; a name-like line without either is proposed too (at half the confidence) when
 * it lies among numbered rows — a number the engine missed — but not above or below them (a title, a signature).
 */
export function parseRegistryPage(
  words: readonly OcrWord[],
  options: { page?: Gray; templates?: readonly Template[] } = {},
): PageRows {
  const tokens: Token[] = [];
  for (const w of words) {
    if (w.box.width <= 0 || w.box.height <= 0) continue;
    const c = classify(w.text);
    if (!c) continue;
    // What the engine itself could not read (a row number in a narrow ruled column, read as "320" at 2%) is left
    // out, except a word beside a name's surer words: a family name misread in part (النكلى at 0% for البكلي)
    // costs fewer characters than a family name dropped.
    const weak = w.confidence < minConfidence;
    if (weak && c.kind !== 'word') continue;
    tokens.push({
      ...c,
      ...(weak ? { weak } : {}),
      confidence: w.confidence,
      box: w.box,
      cx: 0,
      cy: 0,
      line: w.line,
    });
  }
  trimWideBoxes(tokens);
  for (const t of tokens) {
    t.cx = t.box.x + t.box.width / 2;
    t.cy = t.box.y + t.box.height / 2;
  }
  const dateColumn = dateColumnOf(words);
  if (tokens.length === 0) return { rows: [], skew: 0, dateColumn, skipped: 0 };
  const sure = tokens.filter((t) => !t.weak);
  if (sure.length === 0) return { rows: [], skew: 0, dateColumn, skipped: 0 };
  const h = median(sure.map((t) => t.box.height)) || 1;
  // Tall boxes (ruling, a stamp's ring read as a letter) say nothing of the rows.
  const usable = tokens.filter((t) => t.box.height <= 3 * h);
  const skew = estimateSkew(
    usable.filter((t) => !t.weak).map((t) => ({ x: t.cx, y: t.cy, weight: Math.min(t.box.width, 4 * h) })),
    h / 4,
  );
  const mid =
    usable.filter((t) => !t.weak).reduce((s, t) => s + t.cx, 0) /
    Math.max(1, usable.filter((t) => !t.weak).length);
  for (const t of usable) t.cy -= skew * (t.cx - mid);
  usable.sort((a, b) => a.cy - b.cy);

  // Sweep top to bottom: a word whose centre is within the tolerance of the row's running centre joins it.
  const tolerance = 0.55 * h;
  const lines: Token[][] = [];
  let current: Token[] = [];
  let sum = 0;
  for (const t of usable) {
    if (current.length > 0 && t.cy - sum / current.length > tolerance) {
      lines.push(current);
      current = [];
      sum = 0;
    }
    current.push(t);
    sum += t.cy;
  }
  if (current.length > 0) lines.push(current);

  interface Candidate {
    line: Token[];
    name: Token[];
    numbered: boolean;
    row: Omit<ProposedRow, 'index' | 'confidence'> & { nameConfidence: number };
  }
  const candidates: Candidate[] = [];
  let skipped = 0;
  const meanConf = (r: Token[]) => r.reduce((s, t) => s + t.confidence, 0) / r.length;
  const longest = (runs: Token[][]) =>
    [...runs].sort((a, b) => b.length - a.length || meanConf(b) - meanConf(a))[0];
  const parsedLines = lines.map((raw) => {
    const line = withoutDuplicates(raw).sort((a, b) => b.cx - a.cx); // right to left
    // Runs of words with no column gap between them: a name is one of them, with two surer words at least.
    const runs: Token[][] = [];
    let run: Token[] = [];
    let prev: Token | undefined;
    for (const t of line) {
      // A lone letter is no part of a name: speckle or a stroke read as ل or ا. Skipped, without ending the run.
      if (t.kind === 'word' && [...t.text].length === 1) continue;
      const gap = prev ? prev.box.x - (t.box.x + t.box.width) : 0;
      if (t.kind !== 'word' || (prev && gap > 2.2 * h)) {
        if (run.length) runs.push(run);
        run = [];
      }
      if (t.kind === 'word') run.push(t);
      prev = t;
    }
    if (run.length) runs.push(run);
    return { line, names: runs.filter((r) => r.filter((t) => !t.weak).length >= 2) };
  });
  // The names' column: the median span across of each line's longest run. A run mostly outside it is not a name
  // (the row-number column's digits read as two Arabic "words" made a row of their own between two rows).
  const spans = parsedLines
    .map((l) => longest(l.names))
    .filter((r): r is Token[] => r !== undefined)
    .map((r) => union(r.map((t) => t.box)));
  const column =
    spans.length >= 3
      ? { x0: median(spans.map((b) => b.x)), x1: median(spans.map((b) => b.x + b.width)) }
      : undefined;
  const inColumn = (r: Token[]) => {
    if (!column) return true;
    const b = union(r.map((t) => t.box));
    return Math.min(b.x + b.width, column.x1) - Math.max(b.x, column.x0) >= 0.5 * b.width;
  };
  for (const { line, names } of parsedLines) {
    const name = longest(names.filter(inColumn));
    // A title or a column heading is never a name, whatever number the classifier reads beside it.
    if (!name || line.some((t) => t.kind === 'word' && headingWords.has(t.text))) {
      skipped++;
      continue;
    }
    const nameBox = union(name.map((t) => t.box));
    const fields: RowFields = {};
    const fieldConfidence: Partial<Record<RowField, number>> = {};
    const fullName = name.map((t) => t.text).join(' ');
    fields.fullName = fullName;
    const nameConfidence = round3(meanConf(name));
    fieldConfidence.fullName = nameConfidence;
    for (const part of parseParts(fullName).parts) {
      const key = (
        {
          first: 'firstName',
          father: 'fatherName',
          grandfather: 'grandfatherName',
          family: 'familyName',
        } as const
      )[part.role as 'first'];
      if (key) fields[key] = part.text;
    }
    const kept: Token[] = [...name];
    // The cells beside the name read again with the card glyph classifier, when the page is given: tesseract
    // reads Arabic-Indic digits (and, with `ara` alone, Latin ones) as noise.
    const glyphRead =
      options.page && options.templates
        ? cellsBeside(options.page, options.templates, name, nameBox, h, skew, mid)
        : [];
    // Numbers right of the name (before it, reading right to left) number the row; left of it, the detainee. Of
    // several on one side, the one read surest (a date misread in part leaves stray digits).
    const numbers = line.filter((t) => t.kind === 'number');
    const surest = (list: Token[]) =>
      list.sort((a, b) => b.confidence - a.confidence || b.text.length - a.text.length)[0];
    const right = (t: Token) => t.box.x >= nameBox.x + nameBox.width;
    for (const field of ['rowNumber', 'detaineeNumber'] as const) {
      const side = (list: Token[]) => list.filter((t) => right(t) === (field === 'rowNumber'));
      const chosen = agree(surest(side(numbers)), surest(side(glyphRead.filter((t) => t.kind === 'number'))));
      if (chosen) {
        fields[field] = identifierKey(chosen.text).replace(/-/g, '/');
        fieldConfidence[field] = round3(chosen.confidence);
        kept.push(chosen);
      }
    }
    const date = agree(
      line.find((t) => t.kind === 'date'),
      surest(glyphRead.filter((t) => t.kind === 'date')),
    );
    if (date) {
      fields.date = date.text;
      fieldConfidence.date = round3(date.confidence);
      kept.push(date);
    }
    candidates.push({
      line,
      name,
      numbered:
        fields.rowNumber !== undefined || fields.detaineeNumber !== undefined || fields.date !== undefined,
      row: {
        box: union(kept.map((t) => t.box)),
        nameBox,
        text: line.map((t) => t.text).join(' '),
        fields,
        fieldConfidence,
        nameConfidence,
      },
    });
  }
  const numbered = candidates.map((c, i) => (c.numbered ? i : -1)).filter((i) => i >= 0);
  const first = numbered[0] ?? Number.POSITIVE_INFINITY;
  const last = numbered.at(-1) ?? -1;
  const rows: ProposedRow[] = [];
  candidates.forEach((c, i) => {
    if (!c.numbered && (i < first || i > last)) {
      skipped++;
      return;
    }
    const { nameConfidence, ...row } = c.row;
    rows.push({
      index: rows.length + 1,
      ...row,
      confidence: round3(c.numbered ? nameConfidence : nameConfidence * 0.5),
    });
  });
  return { rows, skew: round3(skew), dateColumn, skipped };
}

/** How much of the narrower of two boxes their overlap across covers, 0–1. */
function overlapAcross(a: Box, b: Box): number {
  const o = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  return o <= 0 ? 0 : o / Math.max(1, Math.min(a.width, b.width));
}

/**
 * One line's words, without ink read twice (the row read again as one line beside the page's reading of it): a
 * word over half covered across by a surer word of its line that reads the same, or by any surer word when it is
 * weak itself. Not every covered word: dropping those lost whole rows on the development pages.
 */
function withoutDuplicates(line: readonly Token[]): Token[] {
  const kept: Token[] = [];
  for (const t of [...line].sort((a, b) => b.confidence - a.confidence))
    if (!kept.some((k) => (t.weak || k.text === t.text) && overlapAcross(k.box, t.box) > 0.5)) kept.push(t);
  return kept;
}

/**
 * Where rows seem missing among the proposed ones: between two neighbours standing two rows' pitch apart (1.6–2.4
 * times the median distance between neighbours' names), the band of the row between, across the names' columns;
 * and the band of a row after the last.
 */
export function missingRows(rows: readonly ProposedRow[]): Box[] {
  if (rows.length < 4) return [];
  const mids = rows.map((r) => r.nameBox.y + r.nameBox.height / 2);
  const pitch = median(mids.slice(1).map((m, i) => m - mids[i]!));
  if (pitch <= 0) return [];
  const x0 = Math.min(...rows.map((r) => r.nameBox.x));
  const x1 = Math.max(...rows.map((r) => r.nameBox.x + r.nameBox.width));
  const h = median(rows.map((r) => r.nameBox.height));
  const out: Box[] = [];
  for (let i = 1; i < mids.length; i++) {
    const gap = mids[i]! - mids[i - 1]!;
    if (gap < 1.6 * pitch || gap > 2.4 * pitch) continue;
    const mid = (mids[i]! + mids[i - 1]!) / 2;
    out.push({ x: x0 - h, y: mid - 0.45 * pitch, width: x1 - x0 + 2 * h, height: 0.9 * pitch });
  }
  // And the band one pitch below the last row: a last row read too weakly to be a row leaves no gap to see (the
  // band above the first was tried as well, and added nothing).
  const after = mids.at(-1)! + pitch;
  out.push({ x: x0 - h, y: after - 0.45 * pitch, width: x1 - x0 + 2 * h, height: 0.9 * pitch });
  return out;
}

/**
 * What tesseract and the glyph classifier read in one cell, as one value: the same value at the surer of the two
 * confidences; different values, the classifier's (made for digits: tesseract's confidence in digits it misreads
 * runs high) at half its confidence, since one of the two is wrong; one alone as it is.
 */
function agree(engine: Token | undefined, glyphs: Token | undefined): Token | undefined {
  if (!engine || !glyphs) return engine ?? glyphs;
  if (engine.text === glyphs.text) return glyphs.confidence >= engine.confidence ? glyphs : engine;
  return { ...glyphs, confidence: glyphs.confidence * 0.5 };
}

/**
 * The row's cells right and left of its name, cut from the page along the row (its straightened centre, put back
 * on the skew), the table's ruling wiped (dark runs longer than any digit), read with the glyph classifier; the
 * words that read as a number or a date, in page pixels.
 */
function cellsBeside(
  page: Gray,
  templates: readonly Template[],
  name: readonly Token[],
  nameBox: Box,
  h: number,
  skew: number,
  mid: number,
): Token[] {
  const cy = name.reduce((s, t) => s + t.cy, 0) / name.length;
  const out: Token[] = [];
  const spans: [number, number][] = [
    [0, nameBox.x - 0.3 * h],
    [nameBox.x + nameBox.width + 0.3 * h, page.width],
  ];
  for (const [from, to] of spans) {
    const x0 = Math.max(0, Math.round(from));
    const x1 = Math.min(page.width, Math.round(to));
    if (x1 - x0 < h) continue;
    const yc = cy + skew * ((x0 + x1) / 2 - mid);
    const y0 = Math.max(0, Math.round(yc - 1.3 * h));
    const y1 = Math.min(page.height, Math.round(yc + 1.3 * h));
    if (y1 - y0 < h) continue;
    const cell = cut(page, x0, y0, x1 - x0, y1 - y0, h);
    for (const w of readGlyphWords(cell, templates)) {
      const c = classify(w.text);
      if (!c || (c.kind !== 'number' && c.kind !== 'date')) continue;
      // Below this the classifier is guessing (its confidences run lower than the engine's: a right reading of
      // Latin digits is about 0.3, and one with ٠, a dot, at most 0.15 — as on cards). Row and detainee numbers
      // are written without leading zeros (a lone dot, read as ٠, is speckle).
      if (w.confidence < minGlyphConfidence || (c.kind === 'number' && c.text.startsWith('0'))) continue;
      const box = {
        x: w.box.x / upscale + x0,
        y: w.box.y / upscale + y0,
        width: w.box.width / upscale,
        height: w.box.height / upscale,
      };
      out.push({
        ...c,
        confidence: w.confidence,
        box,
        line: 'glyphs',
        cx: box.x + box.width / 2,
        cy: box.y + box.height / 2 - skew * (box.x + box.width / 2 - mid),
      });
    }
  }
  return out;
}

/** Cells are enlarged this many times before reading: the glyph templates were made from digits 40–50 pixels tall. */
const upscale = 2;

/**
 * A region of the page, enlarged (bilinear), with long dark runs made white: ruling, longer than 1.5 word heights
 * across or 1.2 down, which no digit has.
 */
function cut(page: Gray, x: number, y: number, w: number, hgt: number, wordHeight: number): Gray {
  const width = w * upscale;
  const height = hgt * upscale;
  const h = wordHeight * upscale;
  const data = new Uint8Array(width * height);
  const at = (px: number, py: number) =>
    page.data[Math.min(page.height - 1, py) * page.width + Math.min(page.width - 1, px)]!;
  for (let r = 0; r < height; r++) {
    const sy = Math.max(0, (r + 0.5) / upscale - 0.5);
    const py = Math.floor(sy);
    const fy = sy - py;
    for (let c = 0; c < width; c++) {
      const sx = Math.max(0, (c + 0.5) / upscale - 0.5);
      const px = Math.floor(sx);
      const fx = sx - px;
      const top = at(x + px, y + py) * (1 - fx) + at(x + px + 1, y + py) * fx;
      const bottom = at(x + px, y + py + 1) * (1 - fx) + at(x + px + 1, y + py + 1) * fx;
      data[r * width + c] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  wipeRuling({ width, height, data }, 1.5 * h, 1.2 * h, 2 * upscale);
  return { width, height, data };
}
