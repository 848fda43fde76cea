/**
 * `npm run bench [-- suite…] [-- --quick] [-- --record]`: runs each suite in its own process, one after another
 * (the machine has two cores; suites must not compete), and prints one table. --record appends the table to
 * bench/RESULTS.md with the date and machine.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow } from './harness.js';

const here = import.meta.dirname;
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const wanted = args.filter((a) => !a.startsWith('--'));
const all = fs
  .readdirSync(path.join(here, 'suites'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const suites = wanted.length ? wanted : all;
for (const s of suites) {
  if (!all.includes(s)) {
    process.stderr.write(`unknown suite ${s}; suites: ${all.join(', ')}\n`);
    process.exit(2);
  }
}

function runSuite(name: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--expose-gc', path.join(here, 'suites', `${name}.ts`), ...flags],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      out += text;
      for (const line of text.split('\n'))
        if (line && !line.startsWith('BENCH_RESULT ')) process.stderr.write(`${line}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
      if (code !== 0 || !line) return reject(new Error(`suite ${name} failed (exit ${code})`));
      resolve(JSON.parse(line.slice('BENCH_RESULT '.length)) as BenchRow[]);
    });
  });
}

function fmt(n: number | undefined, digits = 1): string {
  if (n === undefined || Number.isNaN(n)) return '';
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(digits);
}

function table(rows: BenchRow[]): string {
  const header = ['suite', 'measure', 'size', 'throughput', 'p50 ms', 'p95 ms', 'peak MiB', 'ratio', 'notes'];
  const lines = rows.map((r) => [
    r.suite,
    r.name,
    r.size,
    r.throughput ? `${fmt(r.throughput.value)} ${r.throughput.unit}` : '',
    fmt(r.p50Ms, 3),
    fmt(r.p95Ms, 3),
    fmt(r.peakRssMiB, 0),
    r.ratio
      ? `${r.ratio.value.toFixed(2)}× ${r.ratio.against}${r.ratio.goal ? ` (goal ${r.ratio.goal})` : ''}`
      : '',
    r.extra
      ? Object.entries(r.extra)
          .map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v, 4) : v}`)
          .join('; ')
      : '',
  ]);
  const md = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`);
  return md.join('\n');
}

const results: BenchRow[] = [];
let failed = false;
for (const suite of suites) {
  process.stderr.write(`\n== ${suite}\n`);
  try {
    results.push(...(await runSuite(suite)));
  } catch (error) {
    failed = true;
    process.stderr.write(`${(error as Error).message}\n`);
  }
}
const text = table(results);
process.stdout.write(`\n${text}\n`);
if (flags.includes('--record')) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const heading = `\n## ${new Date().toISOString().slice(0, 10)} — ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}${flags.includes('--quick') ? ' — QUICK sizes' : ''}\n\nSuites: ${suites.join(', ')}\n\n`;
  fs.appendFileSync(path.join(here, 'RESULTS.md'), `${heading}${text}\n`);
  process.stderr.write('appended to bench/RESULTS.md\n');
}
process.exit(failed ? 1 : 0);
