import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { getMeta, openStore } from '../store.js';
import { countUp } from './sqlite-writers.fixture.js';

// SQLite-only by nature: PostgreSQL's writers already wait on each other's row locks.
it('lets two processes write one SQLite file at once: the second waits for the lock, none fails, none is lost', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-writers-'));
  const file = path.join(dir, 'athar.db');
  const store = await openStore({ kind: 'sqlite', file });
  try {
    const times = 150;
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      path.resolve('test/sqlite-writer-child.ts'),
      file,
      String(times),
    ]);
    let ready: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const theirs = new Promise<number>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.startsWith('ready\n')) ready();
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolve(Number(out.slice('ready\n'.length).trim()))
          : reject(new Error(`child exited ${code}: ${err}`)),
      );
    });
    await started;
    const mine = await countUp(store, times);
    expect({ mine, theirs: await theirs }).toEqual({ mine: 0, theirs: 0 });
    expect(await getMeta(store.db, 'counter')).toBe(String(2 * times));
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
