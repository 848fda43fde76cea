/**
 * `athar bundle create` and `athar bundle verify` on the real binary: a good bag verifies with standard checks,
 * and every fault the issue names makes `verify` exit non-zero naming it. Faults that leave the manifests right
 * are made by rewriting the manifests too, as a forger would. A kill during the build leaves no complete bag.
 * Photos are synthetic.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ed25519Signer, generateEd25519Key, signNote } from '../src/ledger/note.js';
import { runAthar } from './cli.js';
import { syntheticPhoto } from './evidence-files.js';

const bin = path.resolve(import.meta.dirname, '../bin/athar.js');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function filesUnder(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, child) : [child];
  });
}

/** What a forger does after editing: Payload-Oxum and both manifests rewritten to match. */
function remanifest(bag: string): void {
  const payload = filesUnder(bag).filter((f) => f.startsWith('data/'));
  const bytes = payload.reduce((n, f) => n + fs.statSync(path.join(bag, f)).size, 0);
  const info = path.join(bag, 'bag-info.txt');
  fs.writeFileSync(
    info,
    fs.readFileSync(info, 'utf8').replace(/^Payload-Oxum: .*$/m, `Payload-Oxum: ${bytes}.${payload.length}`),
  );
  const files = filesUnder(bag).sort();
  const line = (f: string) => `${sha256(fs.readFileSync(path.join(bag, f)))}  ${f}\n`;
  fs.writeFileSync(
    path.join(bag, 'manifest-sha256.txt'),
    files
      .filter((f) => f.startsWith('data/'))
      .map(line)
      .join(''),
  );
  const tags = files.filter((f) => !f.startsWith('data/') && f !== 'tagmanifest-sha256.txt');
  fs.writeFileSync(path.join(bag, 'tagmanifest-sha256.txt'), tags.map(line).join(''));
}

describe('athar bundle (real binary)', () => {
  let dir: string;
  let data: string;
  let good: string;
  let vkey: string;
  let run: string;
  const copy = (name: string) => {
    const to = path.join(dir, name);
    fs.cpSync(good, to, { recursive: true });
    return to;
  };
  const verify = async (bag: string, extra: string[] = []) => {
    const r = await runAthar(['bundle', 'verify', bag, '--json', ...extra]);
    return {
      code: r.code,
      report: JSON.parse(r.stdout) as {
        ok: boolean;
        faults: { code: string; message: string; path?: string }[];
      },
      stderr: r.stderr,
    };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bundle-cli-'));
    data = path.join(dir, 'data');
    const photos = path.join(dir, 'photos');
    fs.mkdirSync(photos);
    for (let i = 0; i < 3; i++)
      fs.writeFileSync(path.join(photos, `p${i}.jpg`), await syntheticPhoto(900 + i));
    const ingested = await runAthar(['ingest', '--data', data, '--no-progress', '--json', photos]);
    expect(ingested.code, ingested.stderr).toBe(0);
    run = JSON.parse(ingested.stdout).runId;
    vkey = (await runAthar(['ledger', 'key', '--data', data])).stdout.trim();
    good = path.join(dir, 'good');
    const made = await runAthar([
      'bundle',
      'create',
      '--data',
      data,
      '--ingest-run',
      run,
      '--out',
      good,
      '--reason',
      'synthetic test',
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).items).toBe(3);
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes a bag that verifies with its own tool, sha256sum and the content digest the log holds', async () => {
    const { code, report } = await verify(good, ['--key', vkey]);
    expect(report.faults).toEqual([]);
    expect(code).toBe(0);
    for (const manifest of ['manifest-sha256.txt', 'tagmanifest-sha256.txt']) {
      execFileSync('sha256sum', ['-c', '--quiet', manifest], { cwd: good });
    }
    expect(fs.readFileSync(path.join(good, 'bagit.txt'), 'utf8')).toBe(
      'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n',
    );
    const manifest = fs.readFileSync(path.join(good, 'manifest-sha256.txt'), 'utf8');
    const content = sha256(
      manifest
        .split('\n')
        .filter((l) => l && !l.includes('  data/export/'))
        .map((l) => `${l}\n`)
        .join(''),
    );
    expect(fs.readFileSync(path.join(good, 'bag-info.txt'), 'utf8')).toContain(`Content-SHA256: ${content}`);
    const info = fs.readFileSync(path.join(good, 'bag-info.txt'), 'utf8');
    for (const label of [
      'Source-Organization',
      'Bagging-Date',
      'Payload-Oxum',
      'External-Identifier',
      'Bag-Size',
      'Requester',
      'Approver',
    ]) {
      expect(info).toMatch(new RegExp(`^${label}: .+$`, 'm'));
    }
    expect(fs.readFileSync(path.join(good, 'README.txt'), 'utf8')).toMatch(
      /كيف تتحقق[\s\S]*sha256sum -c manifest-sha256.txt[\s\S]*How to check it/,
    );
    expect(fs.statSync(path.join(good, 'data')).mode & 0o777).toBe(0o700);
    // The archive itself is still intact after logging the export.
    expect((await runAthar(['verify', '--data', data])).code).toBe(0);
  }, 120_000);

  it('names a flipped byte in an original', async () => {
    const bag = copy('flipped');
    const original = path.join(
      bag,
      'data',
      'originals',
      fs.readdirSync(path.join(bag, 'data', 'originals'))[0]!,
    );
    const bytes = fs.readFileSync(original);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] as number) ^ 0x01;
    fs.writeFileSync(original, bytes);
    const { code, report } = await verify(bag);
    expect(code).toBe(1);
    expect(report.faults[0]).toMatchObject({ code: 'checksum_mismatch', path: path.relative(bag, original) });
  }, 120_000);

  it('names a missing file and an added file', async () => {
    const missing = copy('missing');
    const item = fs.readdirSync(path.join(missing, 'data', 'items'))[0]!;
    fs.rmSync(path.join(missing, 'data', 'items', item));
    expect((await verify(missing)).report.faults[0]).toMatchObject({
      code: 'file_missing',
      path: `data/items/${item}`,
    });
    const added = copy('added');
    fs.writeFileSync(
      path.join(added, 'data', 'originals', 'extra.jpg'),
      await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
        .jpeg()
        .toBuffer(),
    );
    const r = await verify(added);
    expect(r.code).toBe(1);
    expect(r.report.faults[0]).toMatchObject({ code: 'file_added', path: 'data/originals/extra.jpg' });
  }, 120_000);

  it('names an edited metadata file, and — with the manifests rewritten — the broken content digest', async () => {
    const bag = copy('metadata');
    const item = path.join(bag, 'data', 'items', fs.readdirSync(path.join(bag, 'data', 'items'))[0]!);
    const doc = JSON.parse(fs.readFileSync(item, 'utf8'));
    doc.pdq = '0'.repeat(64);
    fs.writeFileSync(item, JSON.stringify(doc));
    expect((await verify(bag)).report.faults[0]).toMatchObject({
      code: 'checksum_mismatch',
      path: path.relative(bag, item),
    });
    remanifest(bag);
    const r = await verify(bag);
    expect(r.code).toBe(1);
    expect(r.report.faults.map((f) => f.code)).toEqual(['content_digest']);
  }, 120_000);

  it('names an edited custody file even when the manifests were rewritten (the row digest the log vouches for)', async () => {
    const bag = copy('custody');
    const file = path.join(bag, 'data', 'custody', fs.readdirSync(path.join(bag, 'data', 'custody'))[0]!);
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.custody_events[0].actor = 'someone-else';
    fs.writeFileSync(file, JSON.stringify(doc));
    expect((await verify(bag)).report.faults[0]).toMatchObject({ code: 'checksum_mismatch' });
    remanifest(bag);
    const r = await verify(bag);
    expect(r.code).toBe(1);
    expect(r.report.faults[0]).toMatchObject({ code: 'row_digest', path: path.relative(bag, file) });
  }, 120_000);

  it('names a proof for another entry', async () => {
    const bag = copy('proof');
    const file = path.join(bag, 'data', 'log', 'inclusion-proofs.jsonl');
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(2);
    [lines[0].proof, lines[1].proof] = [lines[1].proof, lines[0].proof];
    fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    remanifest(bag);
    const r = await verify(bag);
    expect(r.code).toBe(1);
    expect(r.report.faults[0]).toMatchObject({
      code: 'inclusion_failed',
      path: 'data/log/inclusion-proofs.jsonl',
    });
  }, 120_000);

  it('names a checkpoint signed by another key, and a bag whose key is not the one given', async () => {
    const bag = copy('forged');
    const file = path.join(bag, 'data', 'log', 'checkpoint.txt');
    const note = fs.readFileSync(file, 'utf8');
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const origin = text.split('\n')[0]!;
    fs.writeFileSync(file, signNote(text, [ed25519Signer(generateEd25519Key(origin))]));
    remanifest(bag);
    const r = await verify(bag);
    expect(r.code).toBe(1);
    expect(r.report.faults[0]).toMatchObject({
      code: 'checkpoint_signature',
      path: 'data/log/checkpoint.txt',
    });

    const other = generateEd25519Key(origin);
    const { formatVerifierKey } = await import('../src/ledger/note.js');
    const wrong = await verify(good, ['--key', formatVerifierKey(other)]);
    expect(wrong.code).toBe(1);
    expect(wrong.report.faults[0]).toMatchObject({ code: 'key_mismatch' });
  }, 120_000);

  it('a bag without bagit.txt is incomplete; a zip verifies; a bad --key or a missing bag is a usage error', async () => {
    const bag = copy('incomplete');
    fs.rmSync(path.join(bag, 'bagit.txt'));
    expect((await verify(bag)).report.faults[0]).toMatchObject({ code: 'incomplete' });
    const zip = path.join(dir, 'bag.zip');
    const made = await runAthar(['bundle', 'create', '--data', data, '--ingest-run', run, '--out', zip]);
    expect(made.code, made.stderr).toBe(0);
    expect((await runAthar(['bundle', 'verify', zip, '--key', vkey])).code).toBe(0);
    expect((await runAthar(['bundle', 'verify', zip, '--key', 'not-a-key'])).code).toBe(2);
    expect((await runAthar(['bundle', 'verify', path.join(dir, 'nowhere')])).code).toBe(2);
  }, 120_000);

  it('refuses a non-empty target, two scopes, an unknown item, and a requester who may not read originals', async () => {
    const full = path.join(dir, 'full');
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, 'x'), 'x');
    const r1 = await runAthar(['bundle', 'create', '--data', data, '--ingest-run', run, '--out', full]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/not empty/);
    expect(
      (
        await runAthar([
          'bundle',
          'create',
          '--data',
          data,
          '--ingest-run',
          run,
          '--person',
          'p',
          '--out',
          path.join(dir, 'two'),
        ])
      ).code,
    ).toBe(2);
    const r3 = await runAthar([
      'bundle',
      'create',
      '--data',
      data,
      '--evidence',
      'deadbeefdeadbeef',
      '--out',
      path.join(dir, 'unknown'),
    ]);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/no evidence item deadbeefdeadbeef/);
    expect(
      (await runAthar(['users', 'add', 'synthetic-doc', '--role', 'documenter', '--data', data])).code,
    ).toBe(0);
    const r4 = await runAthar([
      'bundle',
      'create',
      '--data',
      data,
      '--ingest-run',
      run,
      '--requester',
      'synthetic-doc',
      '--out',
      path.join(dir, 'denied'),
    ]);
    expect(r4.code).toBe(1);
    expect(r4.stderr).toMatch(/may not read this scope/);
    for (const name of ['two', 'unknown', 'denied']) expect(fs.existsSync(path.join(dir, name))).toBe(false);
  }, 120_000);

  it('a kill -9 during the build leaves no bag marked complete', async () => {
    // Photos of noise do not compress: enough bytes that the kill lands while originals are being copied.
    const photos = path.join(dir, 'big');
    fs.mkdirSync(photos);
    for (let i = 0; i < 24; i++) {
      const noise = Buffer.alloc(1200 * 1200 * 3);
      for (let j = 0; j < noise.length; j++) noise[j] = (j * 2654435761 + i * 97) >>> 24;
      fs.writeFileSync(
        path.join(photos, `n${i}.jpg`),
        await sharp(noise, { raw: { width: 1200, height: 1200, channels: 3 } })
          .jpeg({ quality: 95 })
          .toBuffer(),
      );
    }
    const ingested = await runAthar(['ingest', '--data', data, '--no-progress', '--json', photos]);
    const bigRun = JSON.parse(ingested.stdout).runId;
    for (const out of [path.join(dir, 'killed'), path.join(dir, 'killed.zip')]) {
      const child = spawn(
        process.execPath,
        [bin, 'bundle', 'create', '--data', data, '--ingest-run', bigRun, '--out', out],
        { stdio: 'ignore' },
      );
      const started = Date.now();
      const watched = out.endsWith('.zip') ? `${out}.partial` : path.join(out, 'data', 'originals');
      while (Date.now() - started < 30_000) {
        const far = out.endsWith('.zip')
          ? fs.existsSync(watched) && fs.statSync(watched).size > 2_000_000
          : fs.existsSync(watched) && fs.readdirSync(watched).length >= 2;
        if (far) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('close', r));
      if (out.endsWith('.zip')) {
        expect(fs.existsSync(out), 'a killed zip never gets its name').toBe(false);
      } else {
        expect(fs.existsSync(path.join(out, 'bagit.txt'))).toBe(false);
        expect((await verify(out)).report.faults[0]).toMatchObject({ code: 'incomplete' });
      }
    }
  }, 120_000);
});
