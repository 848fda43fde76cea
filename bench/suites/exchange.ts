/**
 * Exchange figures (issue 22), each beside a baseline measured in the same run:
 * - a court bundle of 1,000 photos (~2 GB of JPEG noise, which does not compress) built, and verified offline,
 *   each against `sha256sum` over the same originals (goal ≥ 0.5×); the zip form beside it;
 * - export of 1M records as CSV, JSON and PFIF by `athar export` in its own process (goal ≥ 100k records/s),
 *   beside a plain keyset read of the rows;
 * - backup, and restore, of a 1M-record, 10k-photo SQLite instance against `cp -r` of its data folder (goal ≥ 0.5×).
 * Everything is synthetic and made in a temp folder, removed at the end. The page cache holds every file on this
 * machine (24 GiB), so baseline and measure both read from memory: the ratios compare work, not the disk.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../../src/config/config.js';
import { SharpImageDecoder } from '../../src/evidence/sharp-image-decoder.js';
import { runSynth } from '../../src/services/batch/synth.js';
import { backup, restore } from '../../src/services/exchange/backup.js';
import { createBundle } from '../../src/services/exchange/bundle-build.js';
import { verifyBundle } from '../../src/services/exchange/bundle-verify.js';
import { importRecords } from '../../src/services/imports/record-import.js';
import { ingest } from '../../src/services/ingest/ingest.js';
import { openLedger } from '../../src/services/ledger/setup.js';
import { initialise } from '../../src/services/setup.js';
import { type BenchRow, quick, report } from '../harness.js';

const bundlePhotos = quick ? 60 : 1000;
const bigWidth = 1500;
const bigHeight = 1200;
const records = quick ? 50_000 : 1_000_000;
const smallPhotos = quick ? 500 : 10_000;
const only = (process.env.BENCH_EXCHANGE ?? 'bundle,export,backup').split(',');

const athar = path.resolve(import.meta.dirname, '..', '..', 'bin', 'athar.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-exchange-'));
const rows: BenchRow[] = [];
const say = (text: string) => process.stderr.write(`${text}\n`);

async function noisePhotos(
  folder: string,
  n: number,
  width: number,
  height: number,
  quality: number,
): Promise<number> {
  fs.mkdirSync(folder, { recursive: true });
  let bytes = 0;
  const one = async (i: number) => {
    const jpeg = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    fs.writeFileSync(path.join(folder, `noise-${String(i).padStart(5, '0')}.jpg`), jpeg);
    bytes += jpeg.length;
  };
  for (let i = 0; i < n; i += 4)
    await Promise.all([0, 1, 2, 3].filter((k) => i + k < n).map((k) => one(i + k)));
  return bytes;
}

function seconds(fn: () => void): number {
  const t = performance.now();
  fn();
  return (performance.now() - t) / 1000;
}

/** Wall seconds, and CPU seconds of this process (all its threads): on a shared machine CPU moves less. */
async function secondsAsync<T>(fn: () => Promise<T>): Promise<{ s: number; cpu: number; value: T }> {
  const t = performance.now();
  const c = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(c);
  return { s: (performance.now() - t) / 1000, cpu: (used.user + used.system) / 1e6, value };
}

function du(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir]).toString().split('\t')[0]);
}

try {
  if (only.includes('bundle')) {
    const folder = path.join(work, 'big-photos');
    say(`making ${bundlePhotos} ${bigWidth}x${bigHeight} noise JPEGs`);
    const bytes = await noisePhotos(folder, bundlePhotos, bigWidth, bigHeight, 97);
    const { ctx } = await initialise(loadConfig({ ATHAR_DATA: path.join(work, 'bundle-data') }, {}));
    say('ingesting them');
    const summary = await ingest(ctx, { paths: [folder], actor: 'bench', decoder: new SharpImageDecoder() });
    await openLedger(ctx).sequencer.publish();
    const shas = (await ctx.store.db.selectFrom('evidence_items').select('sha256').execute()).map(
      (r) => r.sha256,
    );
    const originals = shas.map((s) =>
      path.join(ctx.config.blobs.root, 'sha256', s.slice(0, 2), s.slice(2, 4), s),
    );
    fs.rmSync(folder, { recursive: true, force: true });
    const sha256sum = () => seconds(() => execFileSync('sha256sum', originals, { maxBuffer: 1 << 26 }));
    sha256sum();
    const baseBefore = sha256sum();
    const dirBag = path.join(work, 'bag');
    const built = await secondsAsync(() =>
      createBundle(
        ctx,
        {
          scope: { kind: 'ingest_run', ingestRunId: summary.runId },
          requester: { id: 'os:bench', role: 'operator', name: 'os:bench' },
        },
        dirBag,
      ),
    );
    const verified = await secondsAsync(() => verifyBundle(dirBag));
    if (!verified.value.ok) throw new Error(`bundle did not verify: ${verified.value.faults[0]?.message}`);
    const zipBag = path.join(work, 'bag.zip');
    const zipBuilt = await secondsAsync(() =>
      createBundle(
        ctx,
        {
          scope: { kind: 'ingest_run', ingestRunId: summary.runId },
          requester: { id: 'os:bench', role: 'operator', name: 'os:bench' },
        },
        zipBag,
      ),
    );
    const zipVerified = await secondsAsync(() => verifyBundle(zipBag));
    if (!zipVerified.value.ok)
      throw new Error(`zip bundle did not verify: ${zipVerified.value.faults[0]?.message}`);
    const baseAfter = sha256sum();
    const base = (baseBefore + baseAfter) / 2;
    const gb = bytes / 1e9;
    const size = `${bundlePhotos} photos, ${gb.toFixed(2)} GB`;
    const row = (name: string, s: number, cpu = 0): BenchRow => ({
      suite: 'exchange',
      name,
      size,
      throughput: { value: Math.round(bytes / 1e6 / s), unit: 'MB/s' },
      ratio: {
        against: `sha256sum over the same originals (${Math.round(bytes / 1e6 / base)} MB/s)`,
        value: Math.round((base / s) * 100) / 100,
        goal: '≥ 0.5',
      },
      extra: { seconds: Math.round(s * 10) / 10, cpuSeconds: Math.round(cpu * 10) / 10 },
    });
    rows.push(
      row('court bundle build (folder)', built.s, built.cpu),
      row('court bundle verify (folder)', verified.s, verified.cpu),
    );
    rows.push({
      ...row('court bundle build (zip)', zipBuilt.s),
      ratio: { ...row('', zipBuilt.s).ratio!, goal: 'informational' },
    });
    rows.push({
      ...row('court bundle verify (zip)', zipVerified.s),
      ratio: { ...row('', zipVerified.s).ratio!, goal: 'informational' },
    });
    await ctx.close();
    fs.rmSync(path.join(work, 'bundle-data'), { recursive: true, force: true });
    fs.rmSync(dirBag, { recursive: true, force: true });
    fs.rmSync(zipBag, { force: true });
  }

  if (only.includes('export') || only.includes('backup')) {
    const data = path.join(work, 'data');
    const { ctx } = await initialise(loadConfig({ ATHAR_DATA: data }, {}));
    say(`importing ${records} synthetic records`);
    const people = Math.ceil(records / 1.8);
    const synth = await runSynth({ people, out: path.join(work, 'synth'), seed: 22 });
    const lines = fs.readFileSync(synth.files.records, 'utf8').split('\n');
    const text = lines.slice(0, records + 1).join('\n');
    fs.rmSync(path.join(work, 'synth'), { recursive: true, force: true });
    const imported = await secondsAsync(() =>
      importRecords(ctx.store, [text], {
        kind: 'registry_line',
        actor: 'bench',
        fileName: 'synthetic.csv',
        batchSize: 2000,
      }),
    );
    say(`imported ${imported.value.created} in ${imported.s.toFixed(1)} s`);
    await openLedger(ctx).sequencer.publish();
    const n = imported.value.created;

    if (only.includes('export')) {
      // Baseline: the same rows read page by page with nothing made of them.
      const read = await secondsAsync(async () => {
        let after = '';
        let seen = 0;
        for (;;) {
          const page = await ctx.store.db
            .selectFrom('records')
            .selectAll()
            .where('id', '>', after)
            .orderBy('id')
            .limit(5000)
            .execute();
          if (page.length === 0) break;
          seen += page.length;
          after = page.at(-1)!.id;
        }
        return seen;
      });
      // `athar export` as a person runs it: its own process on the data folder (the bench's process holds the
      // import's heap), timed by its own report (the export) and from outside (with the process's start).
      for (const format of ['csv', 'json', 'pfif'] as const) {
        const out = path.join(work, `records.${format}`);
        const started = performance.now();
        const printed = execFileSync(
          process.execPath,
          [athar, 'export', 'records', '--format', format, '--out', out, '--data', data, '--json'],
          { maxBuffer: 1 << 24 },
        ).toString();
        const processSeconds = (performance.now() - started) / 1000;
        const done = JSON.parse(printed) as { exported: number; ms: number; bytes: number };
        const s = done.ms / 1000;
        rows.push({
          suite: 'exchange',
          name: `export records as ${format} (athar export)`,
          size: `${(n / 1e6).toFixed(2)}M records`,
          throughput: { value: Math.round(done.exported / s), unit: 'records/s' },
          ratio: {
            against: `keyset read of the rows (${Math.round(read.value / read.s)} records/s)`,
            value: Math.round((read.s / s) * 100) / 100,
            goal: '≥ 100k records/s',
          },
          extra: {
            seconds: Math.round(s * 10) / 10,
            processSeconds: Math.round(processSeconds * 10) / 10,
            recordsPerSecondWithStart: Math.round(done.exported / processSeconds),
            MB: Math.round(done.bytes / 1e6),
          },
        });
        fs.rmSync(out, { force: true });
      }
    }

    if (only.includes('backup')) {
      const folder = path.join(work, 'small-photos');
      say(`making and ingesting ${smallPhotos} small noise JPEGs`);
      await noisePhotos(folder, smallPhotos, 480, 360, 90);
      await ingest(ctx, { paths: [folder], actor: 'bench', decoder: new SharpImageDecoder() });
      await openLedger(ctx).sequencer.publish();
      fs.rmSync(folder, { recursive: true, force: true });
      const dataBytes = du(data);
      const copy = path.join(work, 'copy');
      const cp = () => {
        fs.rmSync(copy, { recursive: true, force: true });
        const s = seconds(() => execFileSync('cp', ['-r', data, copy]));
        return s;
      };
      cp();
      const cpBefore = cp();
      const target = path.join(work, 'backup');
      const backedUp = await secondsAsync(() => backup(ctx, target));
      const again = await secondsAsync(() => backup(ctx, target));
      const restoredConfig = loadConfig({ ATHAR_DATA: path.join(work, 'restored') }, {});
      const restored = await secondsAsync(() => restore(target, restoredConfig));
      const cpAfter = cp();
      fs.rmSync(copy, { recursive: true, force: true });
      const cpS = (cpBefore + cpAfter) / 2;
      const size = `${(n / 1e6).toFixed(2)}M records, ${smallPhotos} photos (${backedUp.value.blobs.count} blobs), ${(dataBytes / 1e9).toFixed(2)} GB`;
      const r = (name: string, s: number, extra: Record<string, number | string> = {}): BenchRow => ({
        suite: 'exchange',
        name,
        size,
        throughput: { value: Math.round(dataBytes / 1e6 / s), unit: 'MB/s' },
        ratio: {
          against: `cp -r of the data folder (${cpS.toFixed(1)} s)`,
          value: Math.round((cpS / s) * 100) / 100,
          goal: '≥ 0.5',
        },
        extra: { seconds: Math.round(s * 10) / 10, ...extra },
      });
      rows.push(
        r('backup (first, to an empty folder)', backedUp.s),
        {
          ...r('backup (second, blobs incremental)', again.s, { copiedBlobs: again.value.blobs.copied }),
          ratio: { ...r('', again.s).ratio!, goal: 'informational' },
        },
        r('restore (counts checked)', restored.s),
      );
    }
    await ctx.close();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
report(rows);
