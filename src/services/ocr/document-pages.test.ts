import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { multiPageTiff, pdfOfPages } from '../../../test/ocr/documents.js';
import { DocumentPages, PagesFailure } from './document-pages.js';

/** Plain SYNTHETIC pages told apart by their grey (white, dark): each page given is the page asked for. */
const plain = (grey: number) =>
  sharp({ create: { width: 620, height: 877, channels: 3, background: { r: grey, g: grey, b: grey } } })
    .png()
    .toBuffer();
const meanOf = async (bytes: Uint8Array) => (await sharp(bytes).stats()).channels[0]!.mean;
const documents = new DocumentPages();

describe('the pages of a document (real sharp and poppler)', () => {
  it('gives a single image as one page, unchanged', async () => {
    const png = await plain(255);
    const doc = await documents.open(png, 'image/png');
    expect(doc).toMatchObject({ kind: 'image', pages: 1 });
    expect(await doc.page(1)).toMatchObject({ bytes: png, width: 620, height: 877 });
  });

  it('gives each page of a multi-page TIFF', async () => {
    const doc = await documents.open(await multiPageTiff([await plain(255), await plain(40)]), 'image/tiff');
    expect(doc).toMatchObject({ kind: 'tiff', pages: 2 });
    const [one, two] = [await doc.page(1), await doc.page(2)];
    expect(await meanOf(one.bytes)).toBeGreaterThan(250);
    expect(await meanOf(two.bytes)).toBeLessThan(45);
    expect(two).toMatchObject({ width: 620, height: 877 });
  });

  it.runIf(documents.pdfAvailable())('renders each page of a PDF at 200 dpi', async () => {
    // Pages of 620×877 at 75 dpi: A4 in points, 1654×2339 at 200 dpi.
    const doc = await documents.open(
      await pdfOfPages([await plain(255), await plain(40)], 75),
      'application/pdf',
    );
    try {
      expect(doc).toMatchObject({ kind: 'pdf', pages: 2 });
      const two = await doc.page(2);
      expect(two.width).toBeGreaterThanOrEqual(1650);
      expect(two.height).toBeGreaterThanOrEqual(2335);
      expect(await meanOf(two.bytes)).toBeLessThan(45);
    } finally {
      await doc.close();
    }
  });

  it.runIf(documents.pdfAvailable())(
    'refuses a broken PDF and one over the page limit, with reasons',
    async () => {
      const broken = documents.open(Buffer.from('%PDF-1.4\nnot a document\n'), 'application/pdf');
      await expect(broken).rejects.toThrow(PagesFailure);
      await expect(broken).rejects.toMatchObject({
        reason: 'unreadable',
        message: expect.stringMatching(/^the PDF could not be read: /),
      });
      const pdf = await pdfOfPages([await plain(255), await plain(40)]);
      await expect(new DocumentPages({ maxPages: 1 }).open(pdf, 'application/pdf')).rejects.toMatchObject({
        reason: 'too_many_pages',
        message: expect.stringMatching(/has 2 pages; at most 1 are read/),
      });
    },
  );

  it('says PDFs are unavailable, with the install hint, when pdftoppm is missing; images still open', async () => {
    const none = new DocumentPages({ pdftoppm: '/nonexistent/pdftoppm' });
    expect(none.pdfAvailable()).toBe(false);
    await expect(none.open(Buffer.from('%PDF-1.4\n'), 'application/pdf')).rejects.toMatchObject({
      reason: 'unavailable',
      message: expect.stringMatching(/apt-get install poppler-utils/),
    });
    expect((await none.open(await plain(255), 'image/png')).pages).toBe(1);
  });
});
