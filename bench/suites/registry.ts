/**
 * Registry figures (issue 7):
 * - the person page, GET /api/persons/:id as JSON, under wrk (Debian's `wrk`; autocannon where it is missing) in a
 *   child process, on SQLite and on PostgreSQL: requests/s and p99 (goal ≥ 3,000 req/s and
 *   p99 ≤ 50 ms on 2 cores). The registry holds `athar synth` records (100k; --quick 10k) made through the real
 *   record pipeline (names parsed, keys, places), linked to their synthetic persons, each person with an event and
 *   a claim; every request is signed in by a session cookie and writes its audit row (group commit). Served twice:
 *   in the bench's own process (where a CPU profile can be taken), then by `athar serve` in a process of its own,
 *   the way a deployment runs it — the figure to read.
 * - name search p95 over 1M records (--quick 100k) on SQLite (goal ≤ 50 ms): names drawn Zipf-like from the
 *   synthetic pools in Arabic or one of their Latin spellings, seeded with batched inserts; queries are names in
 *   the other script. SQLite only: seeding 1M records with ~9M key rows into PostgreSQL would take this shared
 *   machine longer than the rest of the suite; the query plan is the same index range scan there.
 * All data is synthetic.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { hashPassword } from '../../src/access/passwords.js';
import { newSecret, secretDigest } from '../../src/access/secrets.js';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.js';
import { loadConfig } from '../../src/config/config.js';
import { newId } from '../../src/ids.js';
import { generate } from '../../src/linkage/synth/generator.js';
import { familyNames, maleNames, type PoolName } from '../../src/linkage/synth/pools.js';
import { buildServer } from '../../src/server/app.js';
import type { AppContext } from '../../src/services/context.js';
import { servicesOf } from '../../src/services/index.js';
import { nameKeys, prepareRecord } from '../../src/services/registry/record-fields.js';
import { CredentialRepository } from '../../src/store/repositories/credentials.js';
import { RecordRepository } from '../../src/store/repositories/records.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import type { RecordTable } from '../../src/store/schema.js';
import { openStore, type Store } from '../../src/store/store.js';
import { freePort } from '../../test/free-port.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';
import { benchPostgresStore } from '../pg-store.js';

const pageRecords = quick ? 10_000 : 100_000;
const searchRecords = Number(process.env.BENCH_SEARCH_RECORDS ?? (quick ? 100_000 : 1_000_000));
const duration = quick ? 5 : 15;
const connections = 32;
// BENCH_SERVE_WORKERS=N runs the served variant with N processes (default 1: plain `athar serve`, the fastest here).
const serveWorkers = Number(process.env.BENCH_SERVE_WORKERS ?? 1);
const queries = quick ? 200 : 500;
const repo = path.resolve(import.meta.dirname, '..', '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-registry-'));
const rows: BenchRow[] = [];
const log = (text: string) => process.stderr.write(`registry: ${text}\n`);

/** Seeds `count` synthetic records through the record pipeline, linked to their persons; returns person ids. */
async function seedRegistry(store: Store, count: number): Promise<string[]> {
  const started = performance.now();
  const synth = generate({ people: Math.ceil(count / 1.8), seed: 'bench-registry' });
  const sourceIds = new Map<string, string>();
  const at = new Date().toISOString();
  const personOf = new Map<number, string>();
  const records = synth.records.slice(0, count);
  const batch = 2000;
  for (let i = 0; i < records.length; i += batch) {
    const slice = records.slice(i, i + batch);
    const recordRows: RecordTable[] = [];
    const keyRows: { key: string; record_id: string }[] = [];
    const persons: { id: string; created_at: string; created_by: null }[] = [];
    const links: {
      id: string;
      record_id: string;
      person_id: string;
      linked_at: string;
      linked_by: string;
      basis: string;
    }[] = [];
    for (const r of slice) {
      let sourceId = sourceIds.get(r.fields.source);
      if (!sourceId) {
        sourceId = newId();
        sourceIds.set(r.fields.source, sourceId);
        await store.db
          .insertInto('sources')
          .values({
            id: sourceId,
            name: r.fields.source,
            kind: 'list',
            description: null,
            reliability_notes: null,
            created_at: at,
            created_by: null,
          })
          .execute();
      }
      const prepared = prepareRecord(r.fields);
      if (!prepared.ok) continue;
      const id = newId();
      recordRows.push({
        id,
        source_id: sourceId,
        external_id: r.fields.record_id,
        kind: 'registry_line',
        ...prepared.record,
        created_at: at,
        created_by: null,
      });
      for (const key of prepared.nameKeys) keyRows.push({ key, record_id: id });
      let personId = personOf.get(r.person);
      if (!personId) {
        personId = newId();
        personOf.set(r.person, personId);
        persons.push({ id: personId, created_at: at, created_by: null });
      }
      links.push({
        id: newId(),
        record_id: id,
        person_id: personId,
        linked_at: at,
        linked_by: 'bench',
        basis: 'import',
      });
    }
    await store.transaction(async (trx) => {
      await new RecordRepository(trx, store.capabilities).insert(recordRows, keyRows);
      if (persons.length) {
        for (let j = 0; j < persons.length; j += 1000)
          await trx
            .insertInto('persons')
            .values(persons.slice(j, j + 1000))
            .execute();
      }
      for (let j = 0; j < links.length; j += 1000) {
        await trx
          .insertInto('record_links')
          .values(
            links.slice(j, j + 1000).map((l) => ({
              ...l,
              decision_id: null,
              note: null,
              unlinked_at: null,
              unlinked_by: null,
              unlink_reason: null,
            })),
          )
          .execute();
      }
      const events = persons.map((p, k) => ({
        id: newId(),
        person_id: p.id,
        record_id: null,
        type: 'arrest',
        date_start: `${2011 + (k % 8)}-0${1 + (k % 9)}`,
        date_end: null,
        date_precision: 'month',
        place: null,
        governorate_id: 'damascus',
        branch_id: 'branch-235',
        description: 'SYNTHETIC',
        created_at: at,
        created_by: 'bench',
      }));
      for (let j = 0; j < events.length; j += 1000)
        await trx
          .insertInto('events')
          .values(events.slice(j, j + 1000))
          .execute();
      const claims = persons.map((p, k) => ({
        id: newId(),
        record_id: null,
        person_id: p.id,
        kind: k % 3 === 0 ? 'seen_in_detention' : 'information_sought',
        statement: 'SYNTHETIC',
        asserted_at: at,
        asserted_by: 'bench',
        source_id: null,
        created_at: at,
        created_by: 'bench',
      }));
      for (let j = 0; j < claims.length; j += 1000)
        await trx
          .insertInto('assertions')
          .values(claims.slice(j, j + 1000))
          .execute();
    });
  }
  // PostgreSQL's planner statistics, as autovacuum or an import (≥ 1,000 records) would have them: without them it
  // reads a person's links through the partial index of all open links. (SQLite has no autovacuum to imitate.)
  if (store.capabilities.dialect === 'postgres') await sql`analyze`.execute(store.db);
  log(
    `seeded ${records.length} records, ${personOf.size} persons in ${Math.round(performance.now() - started)} ms`,
  );
  return [...personOf.values()];
}

async function signedInCookie(store: Store): Promise<string> {
  const user = await new UserRepository(store.db).create({
    username: `bench-${newId().slice(-8)}`,
    passwordHash: await hashPassword('synthetic-bench-password'),
    role: 'investigator',
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

const autocannonScript = `
import fs from 'node:fs';
import autocannon from 'autocannon';
const [url, cookie, idsFile, duration, connections] = process.argv.slice(1);
const ids = JSON.parse(fs.readFileSync(idsFile, 'utf8'));
let i = 0;
const result = await autocannon({
  url, connections: Number(connections), duration: Number(duration), headers: { cookie },
  requests: [{ setupRequest: (req) => { req.path = '/api/persons/' + ids[(i++ * 7919) % ids.length]; return req; } }],
});
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99,
  non2xx: result.non2xx, errors: result.errors, total: result.requests.total, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** wrk's script: the same walk over the persons, and a JSON summary on stdout at the end. */
const wrkScript = (idsFile: string, cookie: string) => `
local ids = {}
for id in io.open(${JSON.stringify(idsFile)}):read("*a"):gmatch('"([^"]+)"') do ids[#ids + 1] = id end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/persons/" .. ids[(i * 7919) % #ids + 1], { ["cookie"] = ${JSON.stringify(cookie)} })
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"total":%d,"us":%d,"p50":%.3f,"p99":%.3f,"non2xx":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
  /** The load generator's own CPU (its whole run), ms. */
  cpuMs: number;
}

/**
 * The load generator: wrk (C, one thread) when it is installed — it leaves more of the 2 cores to the server and
 * the database than autocannon (JavaScript), whose CPU per request is several times wrk's — else autocannon.
 * BENCH_LOAD=autocannon|wrk chooses.
 */
const loadGenerator: 'wrk' | 'autocannon' =
  process.env.BENCH_LOAD === 'autocannon' || process.env.BENCH_LOAD === 'wrk'
    ? process.env.BENCH_LOAD
    : spawnSync('wrk', ['--version']).error
      ? 'autocannon'
      : 'wrk';

async function load(url: string, cookie: string, idsFile: string, seconds: number): Promise<LoadResult> {
  if (loadGenerator === 'wrk') {
    const script = path.join(path.dirname(idsFile), 'load.lua');
    fs.writeFileSync(script, wrkScript(idsFile, cookie));
    // Through a shell that prints, once wrk has ended, its own stat line: the children's CPU (cutime, cstime).
    const command = `wrk -t 1 -c ${connections} -d ${seconds}s --timeout 10s -s '${script}' '${url}' && cat /proc/$$/stat`;
    const lines = (await run('sh', ['-c', command])).trim().split('\n');
    const shell = parseStat(lines.pop() as string);
    // The script's summary is wrk's last line before it.
    const summary = JSON.parse(lines.pop() as string);
    return { ...summary, rps: summary.total / (summary.us / 1e6), cpuMs: shell.childTicks * 10 };
  }
  const args = [autocannonScript, url, cookie, idsFile, String(seconds), String(connections)];
  return JSON.parse(await run(process.execPath, ['--input-type=module', '-e', ...args]));
}

/** Runs a load generator to its end; its standard output. */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`))));
  });
}

interface ProcessStat {
  pid: number;
  name: string;
  parent: number;
  /** CPU clock ticks (1/100 s) of the process, all its threads. */
  ticks: number;
  /** CPU clock ticks of its children that it has waited for. */
  childTicks: number;
}

/** A /proc/<pid>/stat line (Linux). */
function parseStat(line: string): ProcessStat {
  const close = line.lastIndexOf(')');
  const fields = line.slice(close + 2).split(' ');
  return {
    pid: Number.parseInt(line, 10),
    name: line.slice(line.indexOf('(') + 1, close),
    parent: Number(fields[1]),
    ticks: Number(fields[11]) + Number(fields[12]),
    childTicks: Number(fields[13]) + Number(fields[14]),
  };
}

/** Every process running now (empty where /proc cannot be read). */
function processes(): ProcessStat[] {
  const all: ProcessStat[] = [];
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid));
  } catch {
    // no /proc
  }
  for (const pid of pids) {
    try {
      all.push(parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')));
    } catch {
      // the process ended meanwhile
    }
  }
  return all;
}

/** CPU ticks used so far by each process of the local PostgreSQL server. */
function postgresCpuTicks(): Map<number, number> {
  return new Map(processes().flatMap((p) => (p.name === 'postgres' ? [[p.pid, p.ticks] as const] : [])));
}

/**
 * PostgreSQL's CPU seconds between two readings: what each process still running used since the first (all of it
 * for a new one). A backend that ended meanwhile (another client's connection closing) is left out rather than
 * subtracted.
 */
function postgresCpuSecondsSince(before: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of postgresCpuTicks()) ticks += now - (before.get(pid) ?? 0);
  return ticks / 100;
}

/** CPU seconds used so far by a process and its descendants (every thread counts). */
function processTreeCpuSeconds(root: number): number {
  const all = processes();
  const parentOf = new Map(all.map((p) => [p.pid, p.parent]));
  let ticks = 0;
  for (const { pid, ticks: t } of all) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p === root) {
        ticks += t;
        break;
      }
    }
  }
  return ticks / 100;
}

/** `athar serve [--workers N]` on the bench's data, as a deployment runs it; resolves once every process serves. */
async function startServe(
  dir: string,
  env: Record<string, string>,
  workers: number,
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      // BENCH_SERVE_PROF=DIR: every process of the group writes its CPU profile there when it stops.
      ...(process.env.BENCH_SERVE_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVE_PROF}`]
        : []),
      path.join(repo, 'bin', 'athar.js'),
      'serve',
      '--data',
      dir,
      '--port',
      String(port),
      ...(workers > 1 ? ['--workers', String(workers)] : []),
    ],
    {
      cwd: repo,
      env: { ...process.env, ATHAR_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
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

interface Serving {
  /** How the server runs, for the row's name. */
  how: string;
  url: string;
  /** CPU seconds of the server so far. */
  cpuSeconds: () => number;
}

async function personPage(dialect: string, store: Store, databaseUrl?: string): Promise<void> {
  const personIds = await seedRegistry(store, pageRecords);
  const dir = path.join(work, `server-${dialect}`);
  fs.mkdirSync(dir);
  const blobs = new FsBlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  const config = loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' });
  const ctx: AppContext = { config, store, blobs, clock: Date.now, close: async () => {} };
  const app = await buildServer(ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address() as { port: number };
  const cookie = await signedInCookie(store);
  const idsFile = path.join(dir, 'ids.json');
  fs.writeFileSync(idsFile, JSON.stringify(personIds));
  const check = await app.inject({ method: 'GET', url: `/api/persons/${personIds[0]}`, headers: { cookie } });
  if (check.statusCode !== 200) throw new Error(`person page answered ${check.statusCode}: ${check.body}`);
  log(`${dialect}: person page is ${check.body.length} bytes`);
  const cpuSeconds = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1e6;
  };
  await measure(
    dialect,
    { how: '1 process', url: `http://127.0.0.1:${address.port}`, cpuSeconds },
    cookie,
    idsFile,
  );
  await app.close();
  // The same data served by `athar serve` in its own process, as a deployment runs it (`--workers N` when asked).
  const sqliteFile = store.capabilities.dialect === 'sqlite' ? store.location : undefined;
  const serve = await startServe(
    sqliteFile ? path.dirname(sqliteFile) : dir,
    databaseUrl ? { ATHAR_DATABASE_URL: databaseUrl } : {},
    serveWorkers,
  );
  try {
    await measure(
      dialect,
      {
        how: serveWorkers > 1 ? `athar serve --workers ${serveWorkers}` : 'athar serve',
        url: serve.url,
        cpuSeconds: () => processTreeCpuSeconds(serve.pid),
      },
      cookie,
      idsFile,
    );
  } finally {
    await serve.stop();
  }
}

async function measure(dialect: string, serving: Serving, cookie: string, idsFile: string): Promise<void> {
  log(`${dialect}, ${serving.how}: warming up`);
  await load(serving.url, cookie, idsFile, 3);
  // Server CPU per request: a figure that the other work on a shared machine disturbs far less than req/s.
  const profiler =
    process.env.BENCH_CPU_PROFILE && serving.how === '1 process' ? new inspector.Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = serving.cpuSeconds();
  const pgBefore = postgresCpuTicks();
  const result = await load(serving.url, cookie, idsFile, duration);
  const cpuMsPerRequest = ((serving.cpuSeconds() - cpuBefore) * 1000) / Math.max(1, result.total);
  if (profiler) {
    // BENCH_CPU_PROFILE=DIR writes the in-process server's CPU profile of the measured load (Chrome DevTools).
    const { profile } = await profiler.post('Profiler.stop');
    const file = path.join(process.env.BENCH_CPU_PROFILE as string, `person-page-${dialect}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    profiler.disconnect();
    log(`${dialect}: CPU profile in ${file}`);
  }
  // The load generator shares the 2 cores: its CPU per request says how much of them the server could have had.
  const loadMsPerRequest = result.cpuMs / Math.max(1, result.total);
  // PostgreSQL's CPU per request (all its processes, so other users of the server count too).
  const pgMsPerRequest = (postgresCpuSecondsSince(pgBefore) * 1000) / Math.max(1, result.total);
  log(
    `${dialect}, ${serving.how}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, server CPU ${cpuMsPerRequest.toFixed(3)} ms/request${dialect === 'PostgreSQL' ? `, PostgreSQL CPU ${pgMsPerRequest.toFixed(3)} ms/request` : ''}, ${loadGenerator} CPU ${loadMsPerRequest.toFixed(3)} ms/request`,
  );
  rows.push({
    suite: 'registry',
    name: `person page GET /api/persons/:id (${dialect}, ${serving.how})`,
    size: `${pageRecords / 1000}k records`,
    throughput: { value: result.rps, unit: 'req/s' },
    p50Ms: result.p50,
    extra: {
      p99Ms: result.p99,
      serverCpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000,
      ...(dialect === 'PostgreSQL'
        ? { postgresCpuMsPerRequest: Math.round(pgMsPerRequest * 1000) / 1000 }
        : {}),
      loadGenerator,
      loadGeneratorCpuMsPerRequest: Math.round(loadMsPerRequest * 1000) / 1000,
      goal: 'req/s >= 3000, p99 <= 50 ms',
      connections,
      seconds: duration,
      non2xx: result.non2xx,
      errors: result.errors,
    },
  });
}

/** Zipf-like pick from a pool (rank r drawn with weight 1/(r+1)). */
function zipf(pool: readonly PoolName[], u: number): PoolName {
  const n = pool.length;
  const h = Math.log(n + 1);
  const r = Math.min(n - 1, Math.floor(Math.exp(u * h) - 1));
  return pool[r] as PoolName;
}

function spelling(name: PoolName, u: number, arabic: boolean): string {
  if (arabic) return name.ar;
  return name.latin[Math.floor(u * name.latin.length)] ?? name.ar;
}

/** Seeds `count` records fast (raw prepared statements, one transaction per 50k) with their name keys. */
function seedNames(file: string, count: number): { sourceId: string } {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const sourceId = newId();
  const at = new Date().toISOString();
  db.prepare(
    "insert into sources (id, name, kind, created_at) values (?, 'synthetic search bench', 'list', ?)",
  ).run(sourceId, at);
  const insertRecord = db.prepare(
    `insert into records (id, source_id, external_id, kind, original, full_name, first_name, father_name, family_name,
      name_normalized, name_script, created_at) values (?, ?, ?, 'registry_line', '{}', ?, ?, ?, ?, null, ?, ?)`,
  );
  const insertKey = db.prepare('insert or ignore into record_name_keys (key, record_id) values (?, ?)');
  const keyCache = new Map<string, string[]>();
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const started = performance.now();
  const chunk = 50_000;
  for (let done = 0; done < count; done += chunk) {
    db.transaction(() => {
      for (let i = done; i < Math.min(count, done + chunk); i++) {
        const arabic = random() < 0.5;
        const first = spelling(zipf(maleNames, random()), random(), arabic);
        const father = spelling(zipf(maleNames, random()), random(), arabic);
        const family = spelling(zipf(familyNames, random()), random(), arabic);
        const id = newId();
        insertRecord.run(
          id,
          sourceId,
          String(i),
          `${first} ${father} ${family}`,
          first,
          father,
          family,
          arabic ? 'ar' : 'latn',
          at,
        );
        const cacheKey = `${first}|${father}|${family}`;
        let keys = keyCache.get(cacheKey);
        if (!keys) {
          keys = nameKeys({ first, father, grandfather: null, family });
          if (keyCache.size < 500_000) keyCache.set(cacheKey, keys);
        }
        for (const key of keys) insertKey.run(key, id);
      }
    })();
    if ((done / chunk) % 4 === 0)
      log(`search seed: ${done + chunk} records, ${Math.round((performance.now() - started) / 1000)} s`);
  }
  db.exec('analyze');
  db.close();
  return { sourceId };
}

async function nameSearch(): Promise<void> {
  const dir = path.join(work, 'search');
  fs.mkdirSync(dir);
  const file = path.join(dir, 'athar.db');
  (await openStore({ kind: 'sqlite', file })).close();
  const seeded = performance.now();
  seedNames(file, searchRecords);
  const seedMs = performance.now() - seeded;
  const store = await openStore({ kind: 'sqlite', file });
  const blobs = new FsBlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  const config = loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' });
  const { search } = servicesOf({ config, store, blobs, clock: Date.now, close: async () => {} });
  let seed = 987;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const qs: string[] = [];
  for (let i = 0; i < queries; i++) {
    const arabic = random() < 0.5;
    const parts = [
      spelling(zipf(maleNames, random()), random(), arabic),
      ...(random() < 0.5 ? [spelling(zipf(maleNames, random()), random(), arabic)] : []),
      spelling(zipf(familyNames, random()), random(), arabic),
    ];
    qs.push(parts.join(' '));
  }
  for (const q of qs.slice(0, 20)) await search.search({ q, filter: {}, limit: 20 });
  const times: number[] = [];
  let hits = 0;
  for (const q of qs) {
    const t = performance.now();
    const result = await search.search({ q, filter: {}, limit: 20 });
    times.push(performance.now() - t);
    hits += result.items.length;
  }
  const filtered: number[] = [];
  for (const q of qs.slice(0, 100)) {
    const t = performance.now();
    await search.search({ q, filter: { from: '2012-01-01', to: '2015-12-31' }, limit: 20 });
    filtered.push(performance.now() - t);
  }
  await store.close();
  log(`search: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
  rows.push({
    suite: 'registry',
    name: 'name search (keys + part scoring, top 20 with why), SQLite',
    size: `${searchRecords / 1_000_000}M records, ${queries} queries`,
    throughput: { value: 1000 / (times.reduce((a, b) => a + b, 0) / times.length), unit: 'searches/s' },
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    extra: {
      goal: 'p95 <= 50 ms',
      meanHits: hits / queries,
      dateFilteredP95Ms: percentile(filtered, 95),
      seedSeconds: Math.round(seedMs / 1000),
    },
  });
}

// BENCH_REGISTRY_DIALECT=sqlite|postgres runs the person page on one dialect only (while iterating on it).
const only = process.env.BENCH_REGISTRY_DIALECT;
try {
  if (only !== 'postgres') {
    const sqliteDir = path.join(work, 'sqlite');
    fs.mkdirSync(sqliteDir);
    const sqlite = await openStore({ kind: 'sqlite', file: path.join(sqliteDir, 'athar.db') });
    try {
      await personPage('SQLite', sqlite);
    } finally {
      await sqlite.close();
    }
  }
  const postgres = only === 'sqlite' ? undefined : await benchPostgresStore('athar_bench_registry', 8);
  if (postgres) {
    try {
      await personPage('PostgreSQL', postgres.store, postgres.url);
    } finally {
      // BENCH_KEEP_DB=1 keeps the PostgreSQL database for a look at its plans (its name is printed).
      if (process.env.BENCH_KEEP_DB === '1') {
        log(`PostgreSQL database kept: ${postgres.url}`);
        await postgres.store.close();
      } else await postgres.drop();
    }
  }
  if (process.env.BENCH_SKIP_SEARCH !== '1') await nameSearch();
  report(rows);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
