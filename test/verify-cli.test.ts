import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAthar } from './cli.js';
import { syntheticPhoto } from './evidence-files.js';

/**
 * Issue 21, Reliability 2 and 6: `athar verify` reads only (a read-only copy of a data folder verifies, and is left
 * as it was), and `--checkpoint FILE` fails a database restored from an older backup. Synthetic photos only.
 */

const bin = path.resolve(import.meta.dirname, '..', 'bin', 'athar.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) {
    spawnSync('chmod', ['-R', 'u+w', d]);
    fs.rmSync(d, { recursive: true, force: true });
  }
});

function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

async function photos(dir: string, seed: number, count: number): Promise<string> {
  const folder = path.join(dir, `pics-${seed}`);
  fs.mkdirSync(folder, { recursive: true });
  for (let i = 0; i < count; i++)
    fs.writeFileSync(path.join(folder, `p${i}.jpg`), await syntheticPhoto(seed + i, 120, 90));
  return folder;
}

describe('athar verify on the command line', () => {
  it('verifies a read-only copy of a data folder and writes nothing to it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-verify-ro-'));
    dirs.push(dir);
    const data = path.join(dir, 'data');
    expect((await runAthar(['ingest', '--data', data, await photos(dir, 500, 3)])).code).toBe(0);
    const copy = path.join(dir, 'copy');
    fs.cpSync(data, copy, { recursive: true });
    const before = digestTree(copy);
    // As root, permissions do not bind: the copy is handed to nobody and verified as nobody.
    const root = process.getuid?.() === 0;
    if (root) spawnSync('chown', ['-R', '65534:65534', dir]);
    spawnSync('chmod', ['-R', 'a-w', copy]);
    const run = root
      ? spawnSync(
          'setpriv',
          [
            '--reuid=65534',
            '--regid=65534',
            '--clear-groups',
            process.execPath,
            bin,
            'verify',
            '--data',
            copy,
          ],
          { encoding: 'utf8', env: { ...process.env, HOME: os.tmpdir(), ATHAR_LOG_LEVEL: 'silent' } },
        )
      : spawnSync(process.execPath, [bin, 'verify', '--data', copy], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('intact');
    expect(digestTree(copy)).toEqual(before);
  });

  it('with --checkpoint, fails a database restored from an older backup', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-verify-cp-'));
    dirs.push(dir);
    const data = path.join(dir, 'data');
    expect((await runAthar(['ingest', '--data', data, await photos(dir, 600, 2)])).code).toBe(0);
    const older = path.join(dir, 'older.db');
    fs.copyFileSync(path.join(data, 'athar.db'), older);
    expect((await runAthar(['ingest', '--data', data, await photos(dir, 700, 2)])).code).toBe(0);
    const cp = await runAthar(['ledger', 'checkpoint', '--data', data]);
    expect(cp.code).toBe(0);
    const file = path.join(dir, 'checkpoint.txt');
    fs.writeFileSync(file, cp.stdout);
    const good = await runAthar(['verify', '--data', data, '--checkpoint', file]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('the log extends it');
    // The older backup, restored: intact in itself, but behind the checkpoint kept elsewhere.
    fs.copyFileSync(older, path.join(data, 'athar.db'));
    for (const extra of ['-wal', '-shm']) fs.rmSync(path.join(data, `athar.db${extra}`), { force: true });
    const plain = await runAthar(['verify', '--data', data]);
    expect(plain.stdout).not.toContain('checkpoint_rollback');
    const rolled = await runAthar(['verify', '--data', data, '--checkpoint', file]);
    expect(rolled.code).toBe(1);
    expect(rolled.stdout).toContain('[checkpoint_rollback]');
  });
});
