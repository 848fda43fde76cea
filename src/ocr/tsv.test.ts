import { describe, expect, it } from 'vitest';
import { linesOf, parseTesseractTsv, parseTesseractVersion } from './tsv.js';

const tsv = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '1\t1\t0\t0\t0\t0\t0\t0\t360\t240\t-1\t',
  '4\t1\t1\t1\t1\t0\t141\t27\t77\t34\t-1\t',
  '5\t1\t1\t1\t1\t1\t141\t27\t77\t34\t95.5\t215',
  '5\t1\t1\t1\t2\t1\t127\t97\t106\t34\t96.7\t3456',
  '5\t1\t1\t1\t2\t2\t20\t97\t50\t34\t40\tفرع',
  '5\t1\t1\t1\t3\t1\t1\t1\t1\t1\t-1\t ',
].join('\n');

describe('tesseract TSV', () => {
  it('keeps the words with text, their boxes, lines and confidence 0–1', () => {
    const words = parseTesseractTsv(tsv);
    expect(words).toEqual([
      { text: '215', confidence: 0.955, box: { x: 141, y: 27, width: 77, height: 34 }, line: '1.1.1' },
      { text: '3456', confidence: 0.967, box: { x: 127, y: 97, width: 106, height: 34 }, line: '1.1.2' },
      { text: 'فرع', confidence: 0.4, box: { x: 20, y: 97, width: 50, height: 34 }, line: '1.1.2' },
    ]);
    expect(linesOf(words).map((l) => l.length)).toEqual([1, 2]);
  });
  it('refuses what is not TSV', () => expect(() => parseTesseractTsv('hello')).toThrow(/not tesseract TSV/));
  it('reads the version line', () => {
    expect(parseTesseractVersion('tesseract 5.3.0\n leptonica-1.82.0')).toBe('5.3.0');
    expect(parseTesseractVersion('tesseract v5.4.1.20240606')).toBe('5.4.1');
    expect(parseTesseractVersion('nothing')).toBeNull();
  });
});
