import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAthar } from './cli.js';
import { syntheticPhoto } from './evidence-files.js';

describe('custody events reach the tamper-evident log', () => {
  it('logs every ingest, and athar verify then finds the archive intact, or names a flipped byte', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-custody-log-'));
    const data = path.join(dir, 'data');
    fs.mkdirSync(path.join(dir, 'in'));
    for (let i = 0; i < 3; i++) {
      fs.writeFileSync(path.join(dir, 'in', `synthetic-${i}.jpg`), await syntheticPhoto(320, 240, 100 + i));
    }
    const ingest = await runAthar([
      'ingest',
      path.join(dir, 'in'),
      '--data',
      data,
      '--json',
      '--actor',
      'tester',
    ]);
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(JSON.parse(ingest.stdout)).toMatchObject({ stored: 3 });

    const checkpoint = await runAthar(['ledger', 'checkpoint', '--data', data, '--json']);
    expect(checkpoint.code, checkpoint.stderr).toBe(0);
    expect(JSON.parse(checkpoint.stdout).size).toBeGreaterThanOrEqual(3);

    const verify = await runAthar(['verify', '--data', data, '--json']);
    expect(verify.code, verify.stdout).toBe(0);

    const shown = await runAthar(['evidence', 'search', 'x', '--data', data, '--json']);
    expect(shown.code).toBeLessThan(2);
    const blobRoot = path.join(data, 'blobs', 'sha256');
    const first = fs.readdirSync(blobRoot)[0] as string;
    const second = fs.readdirSync(path.join(blobRoot, first))[0] as string;
    const name = fs.readdirSync(path.join(blobRoot, first, second))[0] as string;
    const file = path.join(blobRoot, first, second, name);
    fs.chmodSync(file, 0o640);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const broken = await runAthar(['verify', '--data', data, '--json']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(name);
    // Five runs of the real binary: each starts Node and tsx, which is slow on a loaded 2-core machine.
  }, 120_000);
});
