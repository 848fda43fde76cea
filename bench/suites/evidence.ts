/**
 * Evidence figures (issue 5):
 * - ingest throughput on 2-megapixel JPEGs against the raw shrink-on-load decode rate of the same files, measured
 *   in the same run (goal ≥ 0.5× and ≥ 100 photos/s on 2 cores);
 * - PDQ hashing alone (the pure core, on 512×512 pixels);
 * - near-duplicate query p50/p95 over 100k hashes (goal: fast), and the index's build time and memory.
 * The JPEGs are synthetic (gradients, shapes, texture and noise), made with sharp in a temp folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../../src/config/config.js';
import { pdqFromPixels } from '../../src/evidence/pdq.js';
import { PdqIndex } from '../../src/evidence/pdq-index.js';
import { SharpImageDecoder } from '../../src/evidence/sharp-image-decoder.js';
import { openContext } from '../../src/services/context.js';
import { ingest } from '../../src/services/ingest.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';

const photos = quick ? 48 : 400;
const width = 1632;
const height = 1224;
const indexSize = quick ? 20_000 : 100_000;
const queries = quick ? 500 : 2_000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-evidence-'));
const rows: BenchRow[] = [];

try {
  const folder = path.join(work, 'photos');
  fs.mkdirSync(folder);
  process.stderr.write(`making ${photos} synthetic ${width}x${height} JPEGs in ${folder}\n`);
  let totalBytes = 0;
  for (let i = 0; i < photos; i++) {
    const file = path.join(folder, `photo-${String(i).padStart(5, '0')}.jpg`);
    fs.writeFileSync(file, await syntheticPhoto(i));
    totalBytes += fs.statSync(file).size;
  }
  const files = fs.readdirSync(folder).map((f) => path.join(folder, f));
  // A few other photos to ingest first, so that the measured run sees compiled code, as a long ingest does.
  const warmUp = path.join(work, 'warm-up');
  fs.mkdirSync(warmUp);
  for (let i = 0; i < 16; i++)
    fs.writeFileSync(path.join(warmUp, `w-${i}.jpg`), await syntheticPhoto(100_000 + i));
  const meanKiB = Math.round(totalBytes / photos / 1024);

  // Baseline: decode each file once, shrinking on load, to at most 512 px, as many at once as libuv allows.
  sharp.cache(false);
  const decode = await timed(files, 4, (file) =>
    sharp(file).resize(512, 512, { fit: 'inside' }).raw().toBuffer(),
  );
  const decodeRate = photos / decode.seconds;
  rows.push({
    suite: 'evidence',
    name: 'shrink-on-load decode (baseline)',
    size: `${photos} × 2 MP JPEG, mean ${meanKiB} KiB`,
    throughput: { value: decodeRate, unit: 'photos/s' },
    // CPU time per photo says the same on a shared machine, where wall-clock rates depend on the neighbours.
    extra: {
      coresUsed: round(decode.cores),
      cpuMsPerPhoto: round((decode.cores * decode.seconds * 1000) / photos),
    },
  });

  // Ingest the same files into a fresh vault (SQLite).
  fs.mkdirSync(path.join(work, 'data'), { recursive: true });
  const ctx = await openContext(loadConfig({ ATHAR_DATA: path.join(work, 'data') }, {}));
  await ingest(ctx, { paths: [warmUp], actor: 'bench', decoder: new SharpImageDecoder() });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const summary = await ingest(ctx, {
    paths: [folder],
    actor: 'bench',
    decoder: new SharpImageDecoder(),
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const again = performance.now();
  const repeat = await ingest(ctx, {
    paths: [folder],
    actor: 'bench',
    decoder: new SharpImageDecoder(),
  });
  const repeatSeconds = (performance.now() - again) / 1000;
  await ctx.close();
  const ingestRate = summary.stored / seconds;
  rows.push({
    suite: 'evidence',
    name: 'ingest (hash, store, type, EXIF, decode, PDQ, 2 views, rows)',
    size: `${photos} × 2 MP JPEG`,
    throughput: { value: ingestRate, unit: 'photos/s' },
    ratio: { against: 'decode', value: ingestRate / decodeRate, goal: '≥ 0.5' },
    extra: {
      goal100: ingestRate >= 100,
      coresUsed: round((used.user + used.system) / 1e6 / seconds),
      cpuMsPerPhoto: round((used.user + used.system) / 1000 / photos),
      stored: summary.stored,
    },
  });
  rows.push({
    suite: 'evidence',
    name: 're-ingest of the same folder (no-op)',
    size: `${photos} files`,
    throughput: { value: photos / repeatSeconds, unit: 'files/s' },
    extra: { stored: repeat.stored, alreadyPresent: repeat.alreadyPresent },
  });

  // PDQ alone on 512×512 RGB, the size the decoder hands it.
  const pixels = await sharp(files[0]!).resize(512, 512, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const pdqTimes: number[] = [];
  for (let i = 0; i < (quick ? 200 : 1000); i++) {
    const t = performance.now();
    pdqFromPixels(pixels, 512, 512, 3);
    pdqTimes.push(performance.now() - t);
  }
  rows.push({
    suite: 'evidence',
    name: 'PDQ hash of 512×512 pixels (one thread)',
    size: `${pdqTimes.length} hashes`,
    throughput: { value: 1000 / mean(pdqTimes), unit: 'hashes/s' },
    p50Ms: percentile(pdqTimes, 50),
    p95Ms: percentile(pdqTimes, 95),
  });

  // Near-duplicate queries: bodies photographed 4 times, each photo's hash some bits away from the body's.
  globalThis.gc?.();
  const before = process.memoryUsage();
  const index = new PdqIndex();
  const hashes: Uint8Array[] = [];
  const buildStart = performance.now();
  while (hashes.length < indexSize) {
    const body = new Uint8Array(randomBytes(32));
    for (let k = 0; k < 4 && hashes.length < indexSize; k++) {
      const h = flipBits(body, 4 + Math.floor(Math.random() * 28));
      index.add(`item-${hashes.length}`, h);
      hashes.push(h);
    }
  }
  const buildMs = performance.now() - buildStart;
  globalThis.gc?.();
  const after = process.memoryUsage();
  const queryTimes: number[] = [];
  let found = 0;
  for (let q = 0; q < queries; q++) {
    const probe = flipBits(
      hashes[Math.floor(Math.random() * hashes.length)]!,
      Math.floor(Math.random() * 12),
    );
    const t = performance.now();
    found += index.query(probe, 31).length;
    queryTimes.push(performance.now() - t);
  }
  rows.push({
    suite: 'evidence',
    name: 'near-duplicate query, distance ≤ 31 (multi-index hashing)',
    size: `${indexSize.toLocaleString('en-US')} hashes`,
    throughput: { value: 1000 / mean(queryTimes), unit: 'queries/s' },
    p50Ms: percentile(queryTimes, 50),
    p95Ms: percentile(queryTimes, 95),
    extra: {
      buildMs: Math.round(buildMs),
      indexMiB:
        Math.round(
          ((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20) * 10,
        ) / 10,
      meanMatches: Math.round((found / queries) * 10) / 10,
    },
  });
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
report(rows);

/** Runs `work` over the items, `concurrency` at a time; wall seconds and the CPU cores it kept busy. */
async function timed<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cores: (used.user + used.system) / 1e6 / seconds };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function flipBits(hash: Uint8Array, bits: number): Uint8Array {
  const out = Uint8Array.from(hash);
  for (let i = 0; i < bits; i++) {
    const bit = Math.floor(Math.random() * 256);
    out[bit >> 3] = out[bit >> 3]! ^ (1 << (bit & 7));
  }
  return out;
}

/**
 * A photo-like picture: a sky-to-ground gradient, shapes, fine texture and sensor noise, different per seed;
 * about 0.5 MB as a quality-85 JPEG, like a camera's 2 MP photo.
 */
async function syntheticPhoto(seed: number): Promise<Buffer> {
  let state = seed * 2654435761 + 1;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const raw = Buffer.alloc(width * height * 3);
  const hue = random() * 255;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const g = (y / height) * 160;
      const texture = Math.sin(x * 0.07 + seed) * Math.cos(y * 0.05) * 18 + Math.sin((x + y) * 0.9) * 6;
      // Sensor noise as a camera leaves it: what makes a real 2 MP JPEG weigh half a megabyte.
      const noise = (random() - 0.5) * 28;
      raw[o] = clamp(60 + g + texture + noise + hue * 0.2);
      raw[o + 1] = clamp(90 + g * 0.6 + texture + noise);
      raw[o + 2] = clamp(200 - g + texture + noise - hue * 0.1);
    }
  }
  const shapes = Array.from({ length: 12 }, () => {
    const cx = Math.round(random() * width);
    const cy = Math.round(random() * height);
    const r = Math.round(40 + random() * 220);
    const colour = `rgb(${Math.round(random() * 255)},${Math.round(random() * 255)},${Math.round(random() * 255)})`;
    return random() < 0.5
      ? `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${colour}" fill-opacity="0.8"/>`
      : `<rect x="${cx}" y="${cy}" width="${r * 2}" height="${r}" fill="${colour}" fill-opacity="0.8"/>`;
  });
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`,
  );
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .composite([{ input: svg }])
    .withExif({ IFD0: { Make: 'athar-bench', Model: 'synthetic', DateTime: '2013:08:01 10:00:00' } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}
