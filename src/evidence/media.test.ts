import { describe, expect, it } from 'vitest';
import {
  displayedSize,
  displayName,
  isImageType,
  mediaTypeOf,
  nameSuggestsImage,
  sanitizeMetadata,
  structuralDamage,
} from './media.js';

describe('file interpretation', () => {
  it.each([
    ['image/jpeg', 'x', 'image/jpeg'],
    [undefined, 'name,number\n1,2\n', 'text/plain'],
    [undefined, 'نص عربي\n', 'text/plain'],
    [undefined, '\u0000\u0001binary', 'application/octet-stream'],
    [undefined, '', 'application/octet-stream'],
  ])('types sniffed %s with content %j as %s', (sniffed, content, type) => {
    expect(mediaTypeOf(sniffed, new TextEncoder().encode(content))).toBe(type);
  });

  it('still calls text a head cut inside a multi-byte letter', () => {
    const bytes = new TextEncoder().encode('أثر');
    expect(mediaTypeOf(undefined, bytes.subarray(0, bytes.length - 1))).toBe('text/plain');
  });

  it('knows which types and names are images', () => {
    expect(isImageType('image/png')).toBe(true);
    expect(isImageType('application/pdf')).toBe(false);
    expect(nameSuggestsImage('IMG_0001.JPG')).toBe(true);
    expect(nameSuggestsImage('scan.pdf')).toBe(false);
  });

  it('swaps width and height for quarter-turn orientations', () => {
    expect(displayedSize(400, 300, 6)).toEqual({ width: 300, height: 400 });
    expect(displayedSize(400, 300, 3)).toEqual({ width: 400, height: 300 });
    expect(displayedSize(400, 300, null)).toEqual({ width: 400, height: 300 });
  });

  it('shows invalid UTF-8 in names as replacement characters', () => {
    expect(displayName(new Uint8Array([0x66, 0xff, 0x2e, 0x6a]))).toBe('f\ufffd.j');
  });

  it.each([
    ['image/jpeg', [0xff, 0xd8, 0xff, 0xe0, 0x00, 0xff, 0xd9], null],
    ['image/jpeg', [0xff, 0xd8, 0xff, 0xe0, 0x00, 0xff, 0xd9, 0x00, 0x00], null],
    ['image/jpeg', [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x12], /JPEG stops after 6 bytes/],
    ['image/png', [...Buffer.from('\x89PNG....IEND\xaeB`\x82', 'latin1')], null],
    ['image/png', [...Buffer.from('\x89PNG....IDAT', 'latin1')], /PNG stops/],
    ['application/pdf', [1, 2, 3], null],
  ])('sees whether a %s of these bytes is cut short', (type, bytes, damage) => {
    const found = structuralDamage(type, Uint8Array.from(bytes));
    if (damage === null) expect(found).toBeNull();
    else expect(found).toMatch(damage);
  });

  it('makes metadata fit for JSON without losing what it says', () => {
    const cleaned = sanitizeMetadata({
      ifd0: { Make: 'Canon\u0000\u0000', Orientation: 6 },
      exif: { MakerNote: new Uint8Array(500), Short: new Uint8Array([1, 2]), Bad: Number.NaN },
      when: new Date('2013-08-01T10:00:00Z'),
      list: Array.from({ length: 300 }, (_, i) => i),
    }) as Record<string, Record<string, unknown>>;
    expect(cleaned.ifd0).toEqual({ Make: 'Canon', Orientation: 6 });
    expect(cleaned.exif).toEqual({
      MakerNote: { $bytes: 500 },
      Short: { $bytes: 2, hex: '0102' },
      Bad: null,
    });
    expect(cleaned.when).toBe('2013-08-01T10:00:00.000Z');
    expect(cleaned.list).toHaveLength(257);
    expect(JSON.parse(JSON.stringify(cleaned))).toEqual(cleaned);
  });
});
