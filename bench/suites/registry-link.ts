/**
 * The tracing loop at national scale (docs/tracing.md), on `athar synth` data, per dialect:
 * - `athar registry link` over ~1M imported records beside `athar link` over the same records as a CSV (same
 *   model, linking at autoLinkAt), measured side by side: time (goal ≤ 2×), peak memory (≤ 4 GiB), F1 of the
 *   persons against truth for both (equal within 0.002) and the pairwise precision of the model's links (≥ 0.995);
 * - 10,000 more records imported by the CLI while `athar serve` runs: seconds from the import's end until the
 *   server's loop has linked and matched them all (goal ≤ 30 s), and the server's resident memory with the match
 *   index of the registry (≤ 2 GiB);
 * - family reports filed on the public form: time until their candidates are stored (p95 ≤ 200 ms), and
 *   `GET /api/reports/:id/candidates` (p95 ≤ 50 ms).
 * `--quick`: 20k people. BENCH_REGISTRY_LINK_DIALECT=sqlite|postgres runs one dialect.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hashPassword } from '../../src/access/passwords.js';
import { newSecret, secretDigest } from '../../src/access/secrets.js';
import { newId } from '../../src/ids.js';
import { pairwiseQuality } from '../../src/linkage/evaluate.js';
import { runSynth } from '../../src/services/batch/synth.js';
import { CredentialRepository } from '../../src/store/repositories/credentials.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { openStore, type Store } from '../../src/store/store.js';
import { freePort } from '../../test/free-port.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';
import { benchPostgresStore } from '../pg-store.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(repo, 'bin', 'athar.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-registry-link-'));
const rows: BenchRow[] = [];
const log = (text: string) => process.stderr.write(`registry-link: ${text}\n`);
const people = quick ? 20_000 : 554_000;
const size = quick ? '20k people' : '1M records';
const added = quick ? 2_000 : 10_000;
const reports = quick ? 30 : 120;

function athar(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ json: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, '--json'], {
      cwd: repo,
      env: { ...process.env, ATHAR_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`athar ${args.slice(0, 2).join(' ')} exited ${code}`));
      resolve({ json: JSON.parse(out), ms: performance.now() - started });
    });
  });
}

function readRows(file: string): string[][] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
}

/** Integer labels for string labels, in a shared numbering. */
function labels(values: string[]): Int32Array {
  const ids = new Map<string, number>();
  return Int32Array.from(values, (v) => {
    let id = ids.get(v);
    if (id === undefined) {
      id = ids.size;
      ids.set(v, id);
    }
    return id;
  });
}

/** Writes the records CSV without its last `held` rows (they arrive later), and those rows as a second file. */
function split(records: string, held: number): { first: string; later: string } {
  const lines = fs.readFileSync(records, 'utf8').trimEnd().split('\n');
  const header = lines[0] as string;
  const body = lines.slice(1);
  const first = path.join(path.dirname(records), 'first.csv');
  const later = path.join(path.dirname(records), 'later.csv');
  fs.writeFileSync(first, `${[header, ...body.slice(0, body.length - held)].join('\n')}\n`);
  fs.writeFileSync(later, `${[header, ...body.slice(body.length - held)].join('\n')}\n`);
  return { first, later };
}

async function session(store: Store, role: string): Promise<string> {
  const user = await new UserRepository(store.db).create({
    username: `bench-${role}-${newId().slice(-8)}`,
    passwordHash: await hashPassword('synthetic-bench-password'),
    role,
  });
  const token = newSecret();
  await new CredentialRepository(store.db).createSession({
    id: secretDigest(token),
    userId: user.id,
    csrfToken: newSecret(18),
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  });
  return `athar_session=${token}`;
}

async function startServe(data: string, env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve', '--data', data, '--port', String(port)], {
    cwd: repo,
    env: { ...process.env, ATHAR_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/athar is serving/.test(stderr)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`athar serve exited ${code}: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU seconds a process has used (user + system), from /proc: what the loop cost, whatever else the machine ran. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function residentMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return performance.now() - started;
}

async function suite(dialect: 'sqlite' | 'postgres', synthDir: string, truthFile: string): Promise<void> {
  const data = path.join(work, `data-${dialect}`);
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const pg = await benchPostgresStore('athar_bench_registry_link', 4);
    if (!pg) return;
    await pg.store.close();
    url = pg.url;
    drop = pg.drop;
  }
  const env: Record<string, string> = url ? { ATHAR_DATABASE_URL: url } : {};
  const { first, later } = split(path.join(synthDir, 'records.csv'), added);
  log(`${dialect}: importing ${size}`);
  const imported = await athar(['import', first, '--kind', 'registry_line', '--data', data], env);
  const records = Number(imported.json.created);
  rows.push({
    suite: 'registry-link',
    name: `import into the registry, every record with its person (${dialect})`,
    size,
    throughput: { value: Math.round(records / (imported.ms / 1000)), unit: 'records/s' },
    extra: { records, seconds: Math.round(imported.ms / 100) / 10 },
  });

  // athar link over the same records as a CSV, at autoLinkAt, then the registry-wide job: side by side.
  log(`${dialect}: registry link`);
  const out = path.join(work, `persons-${dialect}.csv`);
  const job = await athar(['registry', 'link', '--data', data, '--out', out], env);
  const autoLinkAt = (job.json.model as { autoLinkAt: number }).autoLinkAt;
  log(`${dialect}: athar link of the same records`);
  const clusters = path.join(work, `clusters-${dialect}.csv`);
  const linked = await athar(['link', first, '--out', clusters, '--threshold', String(autoLinkAt)]);
  const truth = new Map(readRows(truthFile).map(([r, p]) => [r as string, p as string]));
  const fromJob = readRows(out).map(([, external, , person]) => [external as string, person as string]);
  const fromFile = readRows(clusters).map(([record, cluster]) => [record as string, cluster as string]);
  const quality = (pairs: string[][]) =>
    pairwiseQuality(
      labels(pairs.map(([, p]) => p as string)),
      labels(pairs.map(([r]) => truth.get(r as string) ?? `none-${r}`)),
    );
  const q = quality(fromJob);
  const qFile = quality(fromFile);
  rows.push({
    suite: 'registry-link',
    name: `athar registry link (${dialect})`,
    size,
    throughput: { value: Math.round(records / (job.ms / 1000)), unit: 'records/s' },
    peakRssMiB: Number(job.json.peakMemoryMiB),
    ratio: {
      against: 'athar link on the same CSV',
      value: Math.round((job.ms / linked.ms) * 100) / 100,
      goal: '≤ 2× the time; F1 within 0.002; precision ≥ 0.995',
    },
    extra: {
      seconds: Math.round(job.ms / 100) / 10,
      linkSeconds: Math.round(linked.ms / 100) / 10,
      linkPeakMiB: Number(linked.json.peakMemoryMiB),
      precision: Math.round(q.precision * 10000) / 10000,
      recall: Math.round(q.recall * 10000) / 10000,
      f1: Math.round(q.f1 * 10000) / 10000,
      linkF1: Math.round(qFile.f1 * 10000) / 10000,
      f1Difference: Math.round(Math.abs(q.f1 - qFile.f1) * 10000) / 10000,
      autoLinkAt,
      moved: Number(job.json.moved),
      reviewPairs: Number(job.json.reviewPairs),
      // Where the job's time goes, stage by stage (seconds).
      ...Object.fromEntries(
        Object.entries((job.json.timingsMs ?? {}) as Record<string, number>)
          .filter(([stage]) => stage !== 'total')
          .map(([stage, ms]) => [`${stage}S`, Math.round(ms / 100) / 10]),
      ),
    },
  });
  log(`${dialect}: registry link stages ${JSON.stringify(job.json.timingsMs)}`);

  // The loop in a running server: records imported by another process, and family reports.
  log(`${dialect}: serving; ${added} more records by the CLI`);
  const store = await openStore(
    url ? { kind: 'postgres', url, poolSize: 4 } : { kind: 'sqlite', file: path.join(data, 'athar.db') },
    {
      migrate: false,
    },
  );
  // Behind one trusted proxy (loopback), as a public server is: each report comes from its own family's address, so
  // the public form's per-address limit does not end the sample at ten.
  const serveStarted = performance.now();
  const serving = await startServe(data, { ...env, ATHAR_TRUST_PROXY: '1' });
  try {
    const pending = async () =>
      Number(
        (
          await store.db
            .selectFrom('tracing_queue')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );
    // The queue is empty after the registry-wide run; the index is built at start: the import waits for it, as an
    // import into a server that has been up a while would.
    await waitFor(async () => (await pending()) === 0, 600_000);
    const cookie = await session(store, 'liaison');
    let indexed: number | null = null;
    await waitFor(
      async () => {
        const res = await fetch(`${serving.url}/api/tracing`, { headers: { cookie } });
        if (!res.ok) throw new Error(`GET /api/tracing: ${res.status}`);
        indexed = ((await res.json()) as { indexedRecords: number | null }).indexedRecords;
        return indexed !== null;
      },
      900_000,
      250,
    );
    const indexSeconds = Math.round((performance.now() - serveStarted) / 100) / 10;
    log(`${dialect}: match index of ${indexed} records built ${indexSeconds} s after the server's start`);
    const residentBefore = residentMiB(serving.pid);
    const cpuBefore = cpuSeconds(serving.pid);
    const more = await athar(['import', later, '--kind', 'registry_line', '--data', data], env);
    const drained = await waitFor(async () => (await pending()) === 0, 600_000);
    const loopCpu = Math.round((cpuSeconds(serving.pid) - cpuBefore) * 10) / 10;
    const load = os.loadavg()[0]?.toFixed(1);
    log(
      `${dialect}: the loop took ${Math.round(drained / 100) / 10} s after the import, ${loopCpu} s of the server's CPU (load ${load})`,
    );
    rows.push({
      suite: 'registry-link',
      name: `new records linked and matched by the server's loop (${dialect})`,
      size: `${added} records into ${size}`,
      throughput: { value: Math.round(added / (drained / 1000)), unit: 'records/s' },
      ratio: {
        against: '30 s after the import ends',
        value: Math.round((drained / 30_000) * 100) / 100,
        goal: '≤ 1',
      },
      extra: {
        secondsAfterImport: Math.round(drained / 100) / 10,
        importSeconds: Math.round(more.ms / 100) / 10,
        indexBuiltSecondsAfterStart: indexSeconds,
        // The server's CPU from the import's start to the queue's end (the import's requests included): on a
        // shared machine the wall time above depends on what else runs.
        serverCpuSeconds: loopCpu,
        loadAverage: Number(load),
      },
    });
    rows.push({
      suite: 'registry-link',
      name: `server resident memory with the registry's match index (${dialect})`,
      size,
      ratio: {
        against: '2 GiB',
        value: Math.round((residentMiB(serving.pid) / 2048) * 100) / 100,
        goal: '≤ 1',
      },
      extra: { residentMiB: residentMiB(serving.pid), residentMiBBeforeImport: residentBefore },
    });

    // Family reports: written like a registry record the archive holds, so they have candidates.
    const sample = readRows(first).slice(0, reports);
    const header = fs.readFileSync(first, 'utf8').split('\n')[0]?.split(',') ?? [];
    const col = (row: string[], name: string) => row[header.indexOf(name)] ?? '';
    const stored: number[] = [];
    const reads: number[] = [];
    for (const [n, row] of sample.entries()) {
      const name =
        col(row, 'full_name') ||
        [col(row, 'first_name'), col(row, 'father_name'), col(row, 'family_name')].filter(Boolean).join(' ');
      if (!name) continue;
      const started = performance.now();
      const res = await fetch(`${serving.url}/api/public/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.${n >> 8}.${n & 255}` },
        body: JSON.stringify({
          language: 'ar',
          person: { fullName: name },
          consent: { internalUse: true },
          contact: {},
        }),
      });
      if (res.status === 429) {
        log(`${dialect}: the public form refused report ${n + 1} (429): the sample ends there`);
        break;
      }
      if (!res.ok) throw new Error(`filing: ${res.status} ${await res.text()}`);
      const { reference } = (await res.json()) as { reference: string };
      const report = await store.db
        .selectFrom('family_reports')
        .select('id')
        .where('reference', '=', reference)
        .executeTakeFirstOrThrow();
      await waitFor(
        async () => {
          const c = await store.db
            .selectFrom('report_candidates')
            .select('id')
            .where('report_id', '=', report.id)
            .limit(1)
            .executeTakeFirst();
          return c !== undefined || (await pending()) === 0;
        },
        60_000,
        2,
      );
      stored.push(performance.now() - started);
      const t0 = performance.now();
      const got = await fetch(`${serving.url}/api/reports/${report.id}/candidates`, { headers: { cookie } });
      if (!got.ok) throw new Error(`candidates: ${got.status}`);
      await got.json();
      reads.push(performance.now() - t0);
    }
    rows.push({
      suite: 'registry-link',
      name: `a family report's candidates stored after filing (${dialect})`,
      size: `${stored.length} reports, ${size}`,
      p50Ms: Math.round(percentile(stored, 50) * 10) / 10,
      p95Ms: Math.round(percentile(stored, 95) * 10) / 10,
      ratio: {
        against: '200 ms',
        value: Math.round((percentile(stored, 95) / 200) * 100) / 100,
        goal: '≤ 1',
      },
    });
    rows.push({
      suite: 'registry-link',
      name: `GET /api/reports/:id/candidates (${dialect})`,
      size: `${reads.length} reports, ${size}`,
      p50Ms: Math.round(percentile(reads, 50) * 10) / 10,
      p95Ms: Math.round(percentile(reads, 95) * 10) / 10,
      ratio: { against: '50 ms', value: Math.round((percentile(reads, 95) / 50) * 100) / 100, goal: '≤ 1' },
    });
  } finally {
    await serving.stop();
    await store.close();
    await drop?.();
  }
}

try {
  log(`generating ${size}`);
  const synthDir = path.join(work, 'synth');
  await runSynth({ people, out: synthDir, seed: 1 });
  const only = process.env.BENCH_REGISTRY_LINK_DIALECT;
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (only && only !== dialect) continue;
    await suite(dialect, synthDir, path.join(synthDir, 'truth.csv'));
  }
  report(rows);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
