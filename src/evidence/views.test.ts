import { describe, expect, it } from 'vitest';
import type { RawImage } from './image-decoder.js';
import { blurredOf, fitWithin, resizeArea, resizeBilinear, thumbnailOf } from './views.js';

function checkerboard(width: number, height: number, cell: number): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 255 : 0;
      data.set([v, v, 255 - v], (y * width + x) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}

function mean(image: RawImage, channel: number): number {
  let sum = 0;
  for (let i = channel; i < image.data.length; i += image.channels) sum += image.data[i]!;
  return sum / (image.width * image.height);
}

/** Mean absolute difference between horizontal neighbours: how much fine detail is left. */
function detail(image: RawImage): number {
  let sum = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 1; x < image.width; x++) {
      sum += Math.abs(image.data[(y * image.width + x) * 3]! - image.data[(y * image.width + x - 1) * 3]!);
    }
  }
  return sum / (image.height * (image.width - 1));
}

describe('derived views', () => {
  it.each([
    [512, 384, 320, 240],
    [384, 512, 240, 320],
    [512, 26, 320, 16],
    [320, 240, 320, 240],
    [200, 100, 200, 100],
    [1, 1, 1, 1],
  ])('fits %ix%i within 320 as %ix%i', (w, h, tw, th) => {
    expect(fitWithin(w, h, 320)).toEqual({ width: tw, height: th });
    expect(thumbnailOf(checkerboard(w, h, 8))).toMatchObject({ width: tw, height: th, channels: 3 });
  });

  it('takes a decoded picture that fits as its own thumbnail', () => {
    const decoded = checkerboard(320, 240, 8);
    expect(thumbnailOf(decoded)).toBe(decoded);
  });

  it('keeps the average colour when shrinking by area', () => {
    const image = checkerboard(300, 200, 10);
    const small = resizeArea(image, 97, 61);
    expect(mean(small, 0)).toBeCloseTo(mean(image, 0), 0);
    expect(mean(small, 2)).toBeCloseTo(mean(image, 2), 0);
  });

  it('enlarges bilinearly between the original samples', () => {
    const tiny: RawImage = {
      data: new Uint8Array([0, 0, 0, 200, 200, 200]),
      width: 2,
      height: 1,
      channels: 3,
    };
    const wide = resizeBilinear(tiny, 8, 1);
    const reds = Array.from({ length: 8 }, (_, i) => wide.data[i * 3]!);
    expect(reds[0]).toBe(0);
    expect(reds[7]).toBe(200);
    for (let i = 1; i < 8; i++) expect(reds[i]!).toBeGreaterThanOrEqual(reds[i - 1]!);
  });

  it('blurs away all fine detail but keeps the colours', () => {
    const thumbnail = thumbnailOf(checkerboard(512, 384, 4));
    const blurred = blurredOf(thumbnail);
    expect(blurred).toMatchObject({ width: 48, height: 36 });
    expect(detail(thumbnail)).toBeGreaterThan(20);
    expect(detail(blurred)).toBeLessThan(2);
    expect(mean(blurred, 2)).toBeCloseTo(mean(thumbnail, 2), -1);
  });

  it('keeps the layout of large shapes in the blurred view', () => {
    // Left half red, right half blue: the blurred view is still red on the left and blue on the right.
    const data = new Uint8Array(256 * 192 * 3);
    for (let i = 0; i < 256 * 192; i++) data.set(i % 256 < 128 ? [220, 0, 0] : [0, 0, 220], i * 3);
    const blurred = blurredOf({ data, width: 256, height: 192, channels: 3 });
    const at = (x: number, y: number) =>
      Array.from(blurred.data.subarray((y * 48 + x) * 3, (y * 48 + x) * 3 + 3));
    expect(at(2, 18)[0]).toBeGreaterThan(180);
    expect(at(45, 18)[2]).toBeGreaterThan(180);
  });

  it('keeps a picture smaller than the blurred view at its size', () => {
    expect(blurredOf(checkerboard(20, 10, 2))).toMatchObject({ width: 20, height: 10 });
  });
});
