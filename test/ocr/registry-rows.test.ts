import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { OcrWord } from '../../src/ocr/engine.js';
import { glyphTemplates } from '../../src/ocr/glyph-templates.js';
import { decodeTemplates } from '../../src/ocr/glyphs.js';
import { estimateSkew, foldDigits, missingRows, parseRegistryPage } from '../../src/ocr/registry-rows.js';
import { parseTesseractTsv } from '../../src/ocr/tsv.js';
import { pageSample } from './synthetic.js';

const word = (text: string, x: number, y: number, width = 60, confidence = 0.9): OcrWord => ({
  text,
  confidence,
  box: { x, y, width, height: 28 },
  line: `${x}.${y}`,
});

describe('scanned registry rows (SYNTHETIC pages)', () => {
  it('rebuilds the rows of a typed page from tesseract’s columns (recorded TSV, ara+eng): names in parts, numbers, boxes', async () => {
    // test/ocr/fixtures/typed-200.ara+eng.tsv: `tesseract page.png stdout -l ara+eng --psm 3 tsv` on pageSample(200).
    const tsv = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/typed-200.ara+eng.tsv'), 'utf8');
    const page = await pageSample(200, { handwritten: false, names: 'common' });
    const read = parseRegistryPage(parseTesseractTsv(tsv));
    expect(read.rows).toHaveLength(page.rows.length);
    expect(read.skipped).toBeGreaterThanOrEqual(1); // the title
    expect(Math.abs(read.skew)).toBeGreaterThan(0.005); // the page is skewed and that was found
    let sameName = 0;
    read.rows.forEach((row, i) => {
      const truth = page.rows[i]!;
      expect(row.index).toBe(i + 1);
      expect(row.fields.detaineeNumber).toBe(truth.number);
      if (row.fields.fullName === truth.name) sameName++;
      const [first, father, family] = truth.name.split(' ');
      if (row.fields.fullName === truth.name)
        expect(row.fields).toMatchObject({ firstName: first, fatherName: father, familyName: family });
      // The row's box holds the name as drawn (give or take the skew).
      expect(row.box.y).toBeLessThan(truth.nameBox.y + truth.nameBox.height + 30);
      expect(row.box.y + row.box.height).toBeGreaterThan(truth.nameBox.y - 30);
      expect(row.confidence).toBeGreaterThan(0);
      expect(row.confidence).toBeLessThanOrEqual(1);
    });
    expect(sameName).toBeGreaterThanOrEqual(page.rows.length - 2);
    // The least confident row is one misread (رامن تيل for رامي نبيل): confidence sorts errors first.
    const least = [...read.rows].sort((a, b) => a.confidence - b.confidence)[0]!;
    expect(least.fields.fullName).not.toBe(page.rows[least.index - 1]!.name);
  });

  it('reads the dates of a dated page and names them from its heading (recorded TSV, Latin digits)', async () => {
    // test/ocr/fixtures/dated-210.ara+eng.tsv: tesseract ara+eng on pageSample(210, { dates: 'latin' }).
    const tsv = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/dated-210.ara+eng.tsv'), 'utf8');
    const page = await pageSample(210, { handwritten: false, dates: 'latin', names: 'common' });
    const read = parseRegistryPage(parseTesseractTsv(tsv));
    expect(read.dateColumn).toBe('arrest_date');
    const byNumber = new Map(page.rows.map((r) => [r.number, r]));
    let dated = 0;
    for (const row of read.rows) {
      const truth = row.fields.detaineeNumber ? byNumber.get(row.fields.detaineeNumber) : undefined;
      if (truth && row.fields.date === truth.date) dated++;
    }
    expect(dated).toBeGreaterThanOrEqual(page.rows.length - 3);
  });

  it('reads Arabic-Indic dates and Latin numbers tesseract (ara) reads as noise with the glyph classifier, never confidently (recorded TSV)', async () => {
    // test/ocr/fixtures/typed-330-indic.ara.tsv: `tesseract page.png stdout -l ara --psm 3 tsv` on
    // pageSample(330, { dates: 'indic' }); the page's own pixels are given for the cells to be read again.
    const tsv = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/typed-330-indic.ara.tsv'), 'utf8');
    const page = await pageSample(330, { handwritten: false, dates: 'indic', names: 'common' });
    const words = parseTesseractTsv(tsv);
    const { data, info } = await sharp(page.image).greyscale().raw().toBuffer({ resolveWithObject: true });
    const grey = { width: info.width, height: info.height, data: new Uint8Array(data) };
    const templates = decodeTemplates(glyphTemplates);
    // Without the page: tesseract's own reading gives no Arabic-Indic date.
    const plain = parseRegistryPage(words);
    expect(plain.rows.filter((r) => r.fields.date).length).toBeLessThanOrEqual(2);
    const read = parseRegistryPage(words, { page: grey, templates });
    expect(read.dateColumn).toBe('arrest_date');
    const byNumber = new Map(page.rows.map((r) => [r.number, r]));
    let dated = 0;
    let numbered = 0;
    for (const row of read.rows) {
      const truth = row.fields.detaineeNumber ? byNumber.get(row.fields.detaineeNumber) : undefined;
      if (truth) numbered++;
      if (truth && row.fields.date === truth.date) dated++;
      // The classifier's readings carry its own, low confidences: a guess is never proposed as sure.
      if (row.fields.date) expect(row.fieldConfidence.date).toBeLessThan(0.6);
    }
    // Two of the page's rows tesseract does not read at all (no name): of the rest, nearly every number and date.
    expect(read.rows.length).toBeGreaterThanOrEqual(page.rows.length - 2);
    expect(numbered).toBeGreaterThanOrEqual(read.rows.length - 2);
    expect(dated).toBeGreaterThanOrEqual(read.rows.length - 2);
  });

  it('folds Arabic-Indic digits; reads dates, the row number before the name and the detainee number after it', () => {
    expect(foldDigits('٢١٥/۳')).toBe('215/3');
    const read = parseRegistryPage([
      word('كشف', 700, 40),
      word('تاريخ', 300, 100),
      word('الاعتقال', 220, 100),
      word('١٢', 1000, 200, 30),
      word('محمد', 800, 200),
      word('أحمد', 730, 200),
      word('الخطيب', 640, 200, 80),
      word('٣١٧٣٦', 400, 200),
      word('١٤/٣/٢٠١٣', 200, 200, 100),
      word('|', 150, 200, 5),
      word('خالد', 800, 260),
      word('عمر', 730, 260),
      word('السيد', 640, 260),
      word('1234/ب', 400, 260),
      word('توقيع', 800, 600),
      word('المدير', 730, 600),
    ]);
    expect(read.dateColumn).toBe('arrest_date');
    expect(read.rows.map((r) => r.fields)).toEqual([
      {
        fullName: 'محمد أحمد الخطيب',
        firstName: 'محمد',
        fatherName: 'أحمد',
        familyName: 'الخطيب',
        rowNumber: '12',
        detaineeNumber: '31736',
        date: '2013-03-14',
      },
      {
        fullName: 'خالد عمر السيد',
        firstName: 'خالد',
        fatherName: 'عمر',
        familyName: 'السيد',
        detaineeNumber: '1234/ب',
      },
    ]);
    // The title, the heading line and the signature below the rows are not rows.
    expect(read.skipped).toBe(3);
    expect(read.rows[0]!.box).toEqual({ x: 200, y: 200, width: 830, height: 28 });
  });

  it('proposes a name line without a number only among numbered rows, at half the confidence', () => {
    const read = parseRegistryPage([
      word('سامر', 800, 100),
      word('الأحمد', 730, 100),
      word('12', 400, 100),
      word('يوسف', 800, 160),
      word('الحسن', 730, 160),
      word('عمر', 800, 220),
      word('البكري', 730, 220),
      word('13', 400, 220),
    ]);
    expect(read.rows.map((r) => [r.fields.fullName, r.confidence])).toEqual([
      ['سامر الأحمد', 0.9],
      ['يوسف الحسن', 0.45],
      ['عمر البكري', 0.9],
    ]);
  });

  it('finds the band of a row missing between two numbered rows standing two pitches apart, and after the last', () => {
    const row = (y: number) => ({
      index: 0,
      box: { x: 100, y, width: 900, height: 30 },
      nameBox: { x: 600, y, width: 300, height: 30 },
      text: '',
      fields: {},
      fieldConfidence: {},
      confidence: 0.9,
    });
    const rows = [200, 256, 312, 424, 480].map(row);
    const bands = missingRows(rows);
    // The gap's row, and the row after the last (a last row read too weakly leaves no gap).
    expect(bands).toHaveLength(2);
    expect(bands[0]!.y).toBeLessThan(368 + 15);
    expect(bands[0]!.y + bands[0]!.height).toBeGreaterThan(368 + 15);
    expect(bands[1]!.y).toBeLessThan(536 + 15);
    expect(bands[1]!.y + bands[1]!.height).toBeGreaterThan(536 + 15);
    expect(missingRows(rows.filter((r) => r.box.y !== 424))).toHaveLength(1);
  });

  it('keeps a weakly read word of a name beside two surer ones, but not a weak word alone or read twice', () => {
    const read = parseRegistryPage([
      word('12', 1000, 100, 30),
      word('طارق', 800, 100),
      word('عبد', 730, 100),
      word('رورش', 640, 100, 60, 0.02), // the family name, misread at 2%: fewer characters wrong than none
      word('3456', 400, 100),
      word('13', 1000, 160, 30),
      word('سامر', 800, 160),
      word('سامر', 805, 160, 55, 0.1), // the same ink read again, weakly
      word('النجار', 730, 160),
      word('4567', 400, 160),
      word('14', 1000, 220, 30),
      word('حظك', 800, 220, 60, 0.1), // no surer word: not a name
      word('فنقى', 730, 220, 60, 0.05),
      word('5678', 400, 220),
    ]);
    expect(read.rows.map((r) => r.fields.fullName)).toEqual(['طارق عبد رورش', 'سامر النجار']);
    expect(read.rows[0]!.fieldConfidence.fullName).toBeLessThan(0.7);
  });

  it('reads a name in order when the engine gave its last word a box reaching back over the words before it', () => {
    const inLine = (w: OcrWord) => ({ ...w, line: '5.2.5' });
    const read = parseRegistryPage([
      inLine(word('مصطفى', 865, 100, 74, 0.1)), // weak, and covered by the wide box: still the first name
      inLine(word('عبد', 814, 100, 41)),
      inLine(word('الرحمن', 736, 100, 68)),
      inLine({ ...word('القاسم', 653, 100), box: { x: 653, y: 100, width: 286, height: 28 } }),
      word('562', 200, 100),
    ]);
    expect(read.rows.map((r) => r.fields.fullName)).toEqual(['مصطفى عبد الرحمن القاسم']);
    expect(read.rows[0]!.nameBox.x).toBe(653);
  });

  it('reads once a word read twice in the same place (a row read again beside the page’s reading)', () => {
    const read = parseRegistryPage([
      word('خالد', 800, 100, 50, 0.6),
      { ...word('خالد', 802, 101, 49, 0.9), line: 'reread.90.1.1.1' },
      word('كمال', 730, 100),
      word('الحمصي', 640, 100, 80),
      word('713', 300, 100),
    ]);
    expect(read.rows.map((r) => r.fields.fullName)).toEqual(['خالد كمال الحمصي']);
  });

  it('leaves a lone letter out of a name without cutting the name in two', () => {
    const read = parseRegistryPage([
      word('شظحي', 800, 100),
      word('شتيوي', 730, 100),
      word('ل', 695, 100, 12),
      word('الذطسي', 600, 100, 80),
      word('524', 300, 100),
    ]);
    expect(read.rows.map((r) => r.fields.fullName)).toEqual(['شظحي شتيوي الذطسي']);
  });

  it('does not take two words read in the row-number column, between two rows, for a row of names', () => {
    const names = [
      ['محمد', 'أحمد', 'الخطيب'],
      ['خالد', 'عمر', 'السيد'],
      ['يوسف', 'كمال', 'الحسن'],
      ['سامر', 'عادل', 'البكري'],
    ];
    const words = names.flatMap(([a, b, c], i) => [
      word(a!, 800, 100 + 56 * i),
      word(b!, 730, 100 + 56 * i),
      word(c!, 640, 100 + 56 * i, 80),
      word(String(1000 + i), 400, 100 + 56 * i),
    ]);
    // The row number "14" read as two Arabic "words", half a row below row 2, beside row 3's number.
    words.push(word('اع', 1080, 184, 38), word('اذ', 1040, 186, 36));
    const read = parseRegistryPage(words);
    expect(read.rows.map((r) => r.fields.fullName)).toEqual(names.map((n) => n.join(' ')));
  });

  it('never proposes the title or a column heading as a name, even with a number read beside it', () => {
    const read = parseRegistryPage([
      word('قائمة', 800, 40),
      word('بأسماء', 730, 40),
      word('الموقوفين', 640, 40, 80),
      word('17', 400, 40), // the stamp's speckle read as a number
      word('الاسم', 800, 100),
      word('الثلاثي', 730, 100),
      word('الرقم', 400, 100),
      word('سامر', 800, 160),
      word('الأحمد', 730, 160),
      word('12', 400, 160),
    ]);
    expect(read.rows.map((r) => r.fields.fullName)).toEqual(['سامر الأحمد']);
  });

  it('a page with no words, or only noise, has no rows', () => {
    expect(parseRegistryPage([]).rows).toEqual([]);
    expect(parseRegistryPage([word('|', 10, 10), word('…', 40, 10), word('ختم', 300, 300)]).rows).toEqual([]);
  });

  it('finds the skew of rows of centres', () => {
    const points = [];
    for (let row = 0; row < 10; row++)
      for (let x = 100; x < 1000; x += 100) points.push({ x, y: 100 + row * 56 + 0.02 * x, weight: 1 });
    expect(estimateSkew(points, 7)).toBeCloseTo(0.02, 2);
  });
});
