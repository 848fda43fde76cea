import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { identifierKey } from '../../src/evidence/identifiers.js';
import { readCard } from '../../src/ocr/cards.js';
import { glyphTemplates } from '../../src/ocr/glyph-templates.js';
import { decodeTemplates } from '../../src/ocr/glyphs.js';
import { cardSample } from './synthetic.js';

const templates = decodeTemplates(glyphTemplates);
const gray = async (image: Buffer) => {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
};

describe('reading cards (SYNTHETIC photos)', () => {
  it('reads the three numbers top to bottom, in either script, with a confidence and a box', async () => {
    // Seeds whose cards the reader reads: Arabic-Indic digits, and Latin in a font the templates never saw.
    for (const seed of [1000, 1004, 1005]) {
      const s = await cardSample(seed, { hard: false });
      const r = readCard(await gray(s.image), templates);
      expect(r.found, s.name).toBe(true);
      if (!r.found || !s.truth) continue;
      expect(r.fields.map((f) => f.part)).toEqual(['branch', 'detainee_number', 'examination_number']);
      expect(r.fields.map((f) => identifierKey(f.value))).toEqual(
        [s.truth.branch, s.truth.detaineeNumber, s.truth.examinationNumber].map(identifierKey),
      );
      for (const f of r.fields) {
        expect(f.confidence).toBeGreaterThan(0);
        expect(f.confidence).toBeLessThanOrEqual(1);
        expect(f.box.x).toBeGreaterThanOrEqual(r.card.x - 2);
        expect(f.box.x + f.box.width).toBeLessThanOrEqual(r.card.x + r.card.width + 2);
      }
    }
  });

  it('proposes nothing for a photo without a card', async () => {
    for (const seed of [7, 8, 9]) {
      const s = await cardSample(seed, { hard: true, noCard: true });
      expect(readCard(await gray(s.image), templates).found).toBe(false);
    }
  });
});
