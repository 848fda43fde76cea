import type { OcrWord } from './engine.js';

/**
 * Tesseract's TSV output (`tesseract … tsv`): a header line, then one row per page, block, paragraph, line and
 * word (level 1–5). Only words (level 5) with text are kept; confidence is given 0–100 (−1 for non-words) and is
 * returned 0–1. Pure.
 */
export function parseTesseractTsv(tsv: string): OcrWord[] {
  const lines = tsv.split(/\r?\n/);
  const header = lines[0]?.split('\t') ?? [];
  const col = (name: string) => header.indexOf(name);
  const at = {
    level: col('level'),
    block: col('block_num'),
    par: col('par_num'),
    line: col('line_num'),
    left: col('left'),
    top: col('top'),
    width: col('width'),
    height: col('height'),
    conf: col('conf'),
    text: col('text'),
  };
  if (Object.values(at).some((i) => i < 0)) throw new Error('not tesseract TSV: the header lacks a column');
  const words: OcrWord[] = [];
  for (const row of lines.slice(1)) {
    if (!row) continue;
    const f = row.split('\t');
    if (f[at.level] !== '5') continue;
    const text = (f[at.text] ?? '').trim();
    if (!text) continue;
    const conf = Number(f[at.conf]);
    words.push({
      text: text.normalize('NFC'),
      confidence: Number.isFinite(conf) && conf >= 0 ? Math.min(1, Math.round(conf * 10) / 1000) : 0,
      box: {
        x: Number(f[at.left]),
        y: Number(f[at.top]),
        width: Number(f[at.width]),
        height: Number(f[at.height]),
      },
      line: `${f[at.block]}.${f[at.par]}.${f[at.line]}`,
    });
  }
  return words;
}

/** The version line of `tesseract --version` ("tesseract 5.3.0" or "tesseract v5.3.0.2023…"), or null. */
export function parseTesseractVersion(output: string): string | null {
  const m = /tesseract\s+v?(\d+\.\d+(?:\.\d+)?)/i.exec(output);
  return m ? m[1]! : null;
}

/** Words grouped by line, lines in the order first met. */
export function linesOf(words: readonly OcrWord[]): OcrWord[][] {
  const byLine = new Map<string, OcrWord[]>();
  for (const w of words) {
    const list = byLine.get(w.line);
    if (list) list.push(w);
    else byLine.set(w.line, [w]);
  }
  return [...byLine.values()];
}
