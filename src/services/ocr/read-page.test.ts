import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageSample } from '../../../test/ocr/synthetic.js';
import { lexiconUserWords } from '../../ocr/user-words.js';
import { readRegistryPage, userWordsFile } from './scanned-pages.js';
import { probeTesseract, TesseractEngine } from './tesseract.js';

const probe = probeTesseract();

describe('a scanned page read as the service reads it (SYNTHETIC, real tesseract)', () => {
  it.runIf(probe.ok)(
    'keeps the ruled rows tesseract’s noise-row rejection dropped (page 1301: row 14 was lost)',
    async () => {
      const engine = TesseractEngine.open({ concurrency: 1 }).engine!;
      const page = await pageSample(1301, { handwritten: false });
      const { parsed } = await readRegistryPage(engine, page.image);
      await engine.close();
      const truth = page.rows[13]!;
      const mid = truth.nameBox.y + truth.nameBox.height / 2;
      const row = parsed.rows.find(
        (r) => Math.abs(r.box.y + r.box.height / 2 - mid) < truth.nameBox.height / 2,
      );
      expect(row?.fields.detaineeNumber).toBe(truth.number);
      expect(parsed.rows.length).toBeGreaterThanOrEqual(page.rows.length);
    },
  );

  it.runIf(probe.ok)(
    'reads the rows of a faded photocopy (page 1341: 3 of 18 rows without stretching its grey)',
    async () => {
      const engine = TesseractEngine.open({ concurrency: 1 }).engine!;
      const page = await pageSample(1341, { handwritten: false, worn: true });
      const { parsed } = await readRegistryPage(engine, page.image);
      await engine.close();
      expect(parsed.rows.length).toBeGreaterThanOrEqual(12);
    },
  );

  it.runIf(probe.ok)(
    'reads again the band after the last row (page 1324: its last row was read too weakly to be one)',
    async () => {
      const engine = TesseractEngine.open({ concurrency: 1 }).engine!;
      const page = await pageSample(1324, { handwritten: false, dates: 'indic', names: 'common' });
      const { parsed } = await readRegistryPage(engine, page.image);
      await engine.close();
      const last = page.rows.at(-1)!;
      expect(parsed.rows.at(-1)?.fields.detaineeNumber).toBe(last.number);
      expect(parsed.rows.at(-1)?.fields.fullName?.split(' ')).toHaveLength(3);
    },
  );

  it('writes the lexicon’s user words once, to a file named by their hash', () => {
    const file = userWordsFile();
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toEqual(lexiconUserWords());
    expect(userWordsFile()).toBe(file);
    fs.rmSync(file);
    // Gone (a cleaned temporary folder): written again.
    expect(fs.existsSync(userWordsFile())).toBe(true);
  });
});
