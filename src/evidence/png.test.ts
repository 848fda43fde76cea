import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RawImage } from './image-decoder.js';
import { encodePng } from './png.js';

function gradient(width: number, height: number, channels: number): RawImage {
  const data = new Uint8Array(width * height * channels);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i % channels) * 50) & 0xff;
  return { data, width, height, channels };
}

describe('PNG encoding', () => {
  it.each([1, 2, 3, 4])('writes %i channels that decode to the same pixels', async (channels) => {
    const image = gradient(37, 21, channels);
    const png = encodePng(image);
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 37, height: 21, channels });
    // sharp hands grey back as RGB: grey is then its first channel, alpha stays last.
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const hasAlpha = channels === 2 || channels === 4;
    const colours = hasAlpha ? channels - 1 : channels;
    for (let p = 0; p < 37 * 21; p++) {
      for (let c = 0; c < colours; c++)
        expect(data[p * info.channels + c]).toBe(image.data[p * channels + c]);
      if (hasAlpha)
        expect(data[p * info.channels + info.channels - 1]).toBe(image.data[p * channels + channels - 1]);
    }
  });

  it('refuses a channel count PNG cannot hold', () => {
    expect(() => encodePng(gradient(2, 2, 5))).toThrow(/5 channels/);
  });
});
