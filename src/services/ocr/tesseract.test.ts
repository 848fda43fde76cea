import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { OcrFailure } from '../../ocr/engine.js';
import { probeTesseract, TesseractEngine } from './tesseract.js';

const probe = probeTesseract();

async function textImage(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="90"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="60" font-family="DejaVu Sans" font-size="40">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('the tesseract adapter', () => {
  it('says why OCR is off when the binary is missing, with how to install it', () => {
    const p = probeTesseract('/nonexistent/tesseract');
    expect(p.ok).toBe(false);
    if (!p.ok)
      expect(p.reason).toMatch(
        /OCR is off: .* was not found; install it with: sudo apt-get install tesseract-ocr tesseract-ocr-ara/,
      );
  });

  it.runIf(probe.ok)(
    'reads words with boxes, reports its version, and fails one bad file alone',
    async () => {
      const opened = TesseractEngine.open({ concurrency: 2 });
      const engine = opened.engine!;
      expect(engine.info.name).toBe('tesseract');
      expect(engine.info.version).toMatch(/^\d+\.\d+/);
      const [good, bad, slow] = await Promise.allSettled([
        engine.recognize({ image: await textImage('3456 7890'), languages: ['eng'], segmentation: 'line' }),
        engine.recognize({ image: Buffer.from('not an image'), languages: ['eng'], segmentation: 'line' }),
        engine.recognize({
          image: await textImage('12'),
          languages: ['eng'],
          segmentation: 'line',
          timeoutMs: 1,
        }),
      ]);
      expect(good.status).toBe('fulfilled');
      if (good.status === 'fulfilled') {
        expect(good.value.words.map((w) => w.text)).toEqual(['3456', '7890']);
        expect(good.value.words[0]!.box.x).toBeGreaterThan(10);
        expect(good.value.words[0]!.confidence).toBeGreaterThan(0.5);
      }
      expect(bad.status).toBe('rejected');
      if (bad.status === 'rejected') expect((bad.reason as OcrFailure).reason).toBe('unreadable');
      expect(slow.status).toBe('rejected');
      if (slow.status === 'rejected') expect((slow.reason as OcrFailure).reason).toBe('timeout');
      await engine.close();
    },
  );

  it.runIf(probe.ok)(
    'passes settings and a user-words file to tesseract, and refuses a setting it cannot pass',
    async () => {
      const engine = TesseractEngine.open({ concurrency: 1 }).engine!;
      const image = await textImage('3456 7890');
      const plain = await engine.recognize({ image, languages: ['eng'], segmentation: 'line' });
      expect(plain.words.map((w) => w.text).join(' ')).toContain('7');
      // The setting reaches tesseract: a character it may not read is not read.
      const barred = await engine.recognize({
        image,
        languages: ['eng'],
        segmentation: 'line',
        settings: { tessedit_char_blacklist: '7' },
      });
      expect(barred.words.map((w) => w.text).join(' ')).not.toContain('7');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-words-'));
      const words = path.join(dir, 'words.txt');
      fs.writeFileSync(words, '3456\n7890\n');
      const withWords = await engine.recognize({
        image,
        languages: ['eng'],
        segmentation: 'line',
        userWords: words,
      });
      expect(withWords.words.map((w) => w.text)).toEqual(['3456', '7890']);
      fs.rmSync(dir, { recursive: true });
      await expect(
        engine.recognize({ image, languages: ['eng'], segmentation: 'line', settings: { x: 'a b' } }),
      ).rejects.toThrow(/not valid/);
      await engine.close();
    },
  );
});
