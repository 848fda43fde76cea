import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

const root = path.resolve(import.meta.dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-names-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The real binary, as a user runs it. */
function spawnAthar(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/athar.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI's `main()` in this process, with stdout and stderr captured (one process start is slow on CI). */
async function athar(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

describe('athar names', () => {
  it('normalize prints the matching form, and everything with --json', async () => {
    const r = await athar('names', 'normalize', 'مُحَمَّد\u200f عبد الرحمن');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('محمد عبد الرحمن\n');
    const j = await athar('names', 'normalize', 'Mohammad Abdulrahman Al-Masri', '--json');
    expect(j.code).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.normalized).toBe('mohammad abdulrahman al masri');
    expect(out.parsed.family).toBe('Al-Masri');
    expect(out.keys).toContain('k:MHMD');
  });

  it('compare prints the score, verdict, parts and why', async () => {
    const r = await athar('names', 'compare', 'محمد عبد الرحمن المصري', 'Muhammed Abd al-Rahman Elmasri');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^score: {3}\d\.\d{4}$/m);
    expect(r.stdout).toContain('verdict: match');
    expect(r.stdout).toContain('father=Abd al-Rahman');
    expect(r.stdout).toContain('lexicon');
    const j = JSON.parse((await athar('names', 'compare', 'Samer Halabi', 'Samir Halabi', '--json')).stdout);
    expect(j.verdict).not.toBe('match');
    expect(j.pairs).toHaveLength(2);
  });

  it('compare without its second name is a usage error', async () => {
    expect((await athar('names', 'compare', 'Samer')).code).toBe(2);
  });

  it('score (the real binary) streams a<TAB>b lines to a<TAB>b<TAB>score lines and names a bad line', () => {
    const input = path.join(tmp, 'pairs.tsv');
    const out = path.join(tmp, 'scored.tsv');
    const names = ['محمد', 'Mohammad', 'Ahmad Masri', 'أحمد المصري', 'Samer', 'Samir', 'Hussein', 'حسين'];
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`${names[i % 8]}\t${names[(i * 3) % 8]}`);
    lines.splice(1233, 0, 'a line without a tab');
    fs.writeFileSync(input, `${lines.join('\n')}\n\n`);
    const r = spawnAthar('names', 'score', '--pairs', input, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${input} line 1234: expected a<TAB>b, found no tab`);
    expect(r.stderr).toContain('scored 3000 pairs; 1 bad lines skipped');
    const scored = fs.readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(scored).toHaveLength(3000);
    for (const line of scored) expect(line).toMatch(/^[^\t]+\t[^\t]+\t(0|1)\.\d{4}$/);
    expect(scored[0]).toBe('محمد\tمحمد\t1.0000');
  });

  it('score writes to stdout without --out and reports a summary with --json', async () => {
    const input = path.join(tmp, 'small.tsv');
    fs.writeFileSync(input, 'Chadi\tشادي\r\nQasim\tKassem\n');
    const r = await athar('names', 'score', '--pairs', input);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').length),
    ).toEqual([3, 3]);
    const out = path.join(tmp, 'small-out.tsv');
    const j = await athar('names', 'score', '--pairs', input, '--out', out, '--json');
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ lines: 2, scored: 2, bad: 0 });
    expect((await athar('names', 'score', '--pairs', input, '--json')).code).toBe(2);
    expect((await athar('names', 'score', '--pairs', path.join(tmp, 'missing.tsv'))).code).toBe(2);
  });
});
