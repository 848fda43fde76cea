import sharp from 'sharp';

/**
 * Multi-page documents made from SYNTHETIC page images, for the scanned-pages tests: a TIFF through sharp (libvips
 * writes one page per frame), and a PDF written here, each page one JPEG drawn over the page with /DCTDecode (the
 * smallest valid PDF of scanned pages; no network, no PDF library).
 */
export async function multiPageTiff(pages: readonly Uint8Array[]): Promise<Buffer> {
  const frames = await Promise.all(pages.map((p) => sharp(p).greyscale().png().toBuffer()));
  return sharp(frames, { join: { animated: true } })
    .greyscale()
    .tiff({ compression: 'lzw' })
    .toBuffer();
}

/** A PDF of these pages, each scanned at `dpi` (its page size in points follows from its pixels). */
export async function pdfOfPages(pages: readonly Uint8Array[], dpi = 150): Promise<Buffer> {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in once the pages' numbers are known
  const kids: number[] = [];
  for (const page of pages) {
    const { data, info } = await sharp(page)
      .toColourspace('b-w')
      .jpeg({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    const image = add(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${info.width} /Height ${info.height} /ColorSpace /${info.channels === 1 ? 'DeviceGray' : 'DeviceRGB'} /BitsPerComponent 8 /Filter /DCTDecode /Length ${data.length} >>\nstream\n`,
          'latin1',
        ),
        data,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
    const w = ((info.width * 72) / dpi).toFixed(2);
    const h = ((info.height * 72) / dpi).toFixed(2);
    const draw = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
    const content = add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${image} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    'latin1',
  );
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`,
  ].join('');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}
