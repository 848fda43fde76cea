import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Flusher } from './flusher.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-flusher-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('flushes files and folders, more at once than it has threads', async () => {
  const flusher = new Flusher(2);
  const fds = Array.from({ length: 7 }, (_, i) => {
    const fd = fs.openSync(path.join(dir, `f-${i}`), 'w');
    fs.writeSync(fd, `content ${i}`);
    return fd;
  });
  const folder = fs.openSync(dir, fs.constants.O_RDONLY);
  await Promise.all([...fds, folder].map((fd) => flusher.fsync(fd)));
  for (const fd of [...fds, folder]) fs.closeSync(fd);
  expect(fs.readFileSync(path.join(dir, 'f-6'), 'utf8')).toBe('content 6');
});

it('fails a flush of a descriptor that is not open with the system error, and goes on serving', async () => {
  const flusher = new Flusher(1);
  // A descriptor number far above any this process has open.
  await expect(flusher.fsync(1_000_000)).rejects.toMatchObject({ code: 'EBADF' });
  const again = fs.openSync(path.join(dir, 'after'), 'w');
  await expect(flusher.fsync(again)).resolves.toBeUndefined();
  fs.closeSync(again);
});

it('flushes a batch in one message per thread, tries every descriptor, and answers with the first failure', async () => {
  const flusher = new Flusher(3);
  const fds = Array.from({ length: 10 }, (_, i) => fs.openSync(path.join(dir, `b-${i}`), 'w'));
  await expect(flusher.fsyncAll(fds)).resolves.toBeUndefined();
  await expect(flusher.fsyncAll([])).resolves.toBeUndefined();
  // One bad descriptor among good ones: the batch fails with its error.
  await expect(flusher.fsyncAll([...fds.slice(0, 4), 1_000_000, ...fds.slice(4)])).rejects.toMatchObject({
    code: 'EBADF',
  });
  for (const fd of fds) fs.closeSync(fd);
});

it('does not keep the process alive once idle', () => {
  // A script that flushes once and then has nothing left to do must end by itself.
  const script = `
    import fs from 'node:fs';
    import { Flusher } from ${JSON.stringify(new URL('./flusher.ts', import.meta.url).href)};
    const fd = fs.openSync(${JSON.stringify(path.join(dir, 'child'))}, 'w');
    await new Flusher(2).fsync(fd);
    console.log('flushed');
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    timeout: 20_000,
    encoding: 'utf8',
  });
  expect(out.trim()).toBe('flushed');
});
