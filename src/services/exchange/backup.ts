import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { isSha256Hex } from '../../blobs/blob-store.js';
import type { Config } from '../../config/config.js';
import { version } from '../../version.js';
import type { AppContext } from '../context.js';
import {
  backupPostgres,
  backupSqlite,
  DatabaseCopyError,
  restorePostgres,
  sqliteCounts,
  type TableCounts,
} from './database-copy.js';

/**
 * `athar backup` and `athar restore` (docs/exchange.md). A backup target is a folder that keeps every snapshot:
 *
 *   <target>/blobs/sha256/ab/cd/<hex>       the blobs, shared by all snapshots: a second backup copies new ones only
 *   <target>/snapshots/<time>/database.*    the database, copied consistently while athar runs
 *   <target>/snapshots/<time>/keys/         the log's signing key and the contacts key (unless --no-keys)
 *   <target>/snapshots/<time>/blobs.txt     the blobs this snapshot needs
 *   <target>/snapshots/<time>/snapshot.json counts of every table and of the blobs: written last, so a killed
 *                                           backup is never taken for a complete one
 *
 * The database is copied before the blobs: blobs are written (and flushed) before the rows that name them commit,
 * and never removed, so every blob the copied rows name is in the store when the blobs are listed. Everything is
 * owner-only (0700 folders, 0600 files). Restore goes into an empty place only, and checks every count.
 */

export const backupFormat = 'athar-backup';

export class BackupError extends Error {
  constructor(
    message: string,
    readonly code: 'usage' | 'failure' = 'failure',
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface SnapshotManifest {
  format: typeof backupFormat;
  version: 1;
  id: string;
  createdAt: string;
  atharVersion: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema dumped (restored under the same name). */
  schema: string | null;
  database: string;
  counts: TableCounts;
  blobs: { count: number; bytes: number };
  keys: string[];
}

export interface BackupReport {
  target: string;
  snapshot: string;
  dialect: 'sqlite' | 'postgres';
  rows: number;
  blobs: { count: number; bytes: number; copied: number; copiedBytes: number; reused: number };
  keys: string[];
  ms: number;
}

const dirMode = 0o700;
const fileMode = 0o600;

function blobPath(root: string, sha: string): string {
  return path.join(root, 'sha256', sha.slice(0, 2), sha.slice(2, 4), sha);
}

/** Copies files `concurrency` at a time, each through a temporary name: a killed copy leaves no half file. */
async function copyMany(
  jobs: { from: string; to: string; mode: number }[],
  concurrency: number,
): Promise<void> {
  const made = new Set<string>();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const job = jobs[next++];
      if (!job) return;
      const dir = path.dirname(job.to);
      if (!made.has(dir)) {
        await fsp.mkdir(dir, { recursive: true, mode: dirMode });
        made.add(dir);
      }
      const tmp = `${job.to}.${process.pid}.partial`;
      await fsp.copyFile(job.from, tmp);
      await fsp.chmod(tmp, job.mode);
      await fsp.rename(tmp, job.to);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function listBlobs(root: string): Promise<{ sha: string; size: number }[]> {
  const out: { sha: string; size: number }[] = [];
  const base = path.join(root, 'sha256');
  for (const a of (await fsp.readdir(base).catch(() => [] as string[])).sort()) {
    for (const b of (await fsp.readdir(path.join(base, a)).catch(() => [] as string[])).sort()) {
      const dir = path.join(base, a, b);
      for (const entry of (await fsp.readdir(dir, { withFileTypes: true })).sort((x, y) =>
        x.name < y.name ? -1 : 1,
      )) {
        if (entry.isFile() && isSha256Hex(entry.name))
          out.push({ sha: entry.name, size: (await fsp.stat(path.join(dir, entry.name))).size });
      }
    }
  }
  return out;
}

function stamp(iso: string): string {
  return iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

export async function backup(
  ctx: AppContext,
  target: string,
  options: { keys?: boolean; concurrency?: number } = {},
): Promise<BackupReport> {
  const start = performance.now();
  const root = path.resolve(target);
  if (fs.existsSync(root)) {
    if (!fs.statSync(root).isDirectory())
      throw new BackupError(`${target} exists and is not a folder: a backup target is a folder`, 'usage');
    const entries = fs.readdirSync(root).filter((n) => n !== 'blobs' && n !== 'snapshots');
    if (entries.length > 0)
      throw new BackupError(
        `${target} holds other things (${entries.slice(0, 3).join(', ')}): give an empty folder or an earlier backup's`,
        'usage',
      );
  }
  await fsp.mkdir(path.join(root, 'snapshots'), { recursive: true, mode: dirMode });
  await fsp.chmod(root, dirMode);
  const createdAt = new Date(ctx.clock()).toISOString();
  let id = stamp(createdAt);
  for (let n = 2; fs.existsSync(path.join(root, 'snapshots', id)); n++) id = `${stamp(createdAt)}-${n}`;
  const snap = path.join(root, 'snapshots', id);
  await fsp.mkdir(snap, { mode: dirMode });

  const database = ctx.config.database;
  let counts: TableCounts;
  let schema: string | null = null;
  let dbFile: string;
  try {
    if (database.kind === 'sqlite') {
      dbFile = 'database.sqlite';
      counts = await backupSqlite(database.file, path.join(snap, dbFile));
    } else {
      dbFile = 'database.pgdump';
      const dumped = await backupPostgres(database.url, path.join(snap, dbFile));
      counts = dumped.counts;
      schema = dumped.schema;
    }
  } catch (error) {
    if (error instanceof DatabaseCopyError) throw new BackupError(error.message);
    throw error;
  }

  const keys: string[] = [];
  if (options.keys !== false) {
    const keyDir = path.join(ctx.config.dataDir, 'keys');
    for (const name of fs.existsSync(keyDir) ? fs.readdirSync(keyDir).sort() : []) {
      const from = path.join(keyDir, name);
      if (!fs.statSync(from).isFile()) continue;
      await fsp.mkdir(path.join(snap, 'keys'), { recursive: true, mode: dirMode });
      await copyMany([{ from, to: path.join(snap, 'keys', name), mode: fileMode }], 1);
      keys.push(name);
    }
  }

  const blobRoot = ctx.config.blobs.root;
  const blobs = await listBlobs(blobRoot);
  const jobs: { from: string; to: string; mode: number }[] = [];
  let reused = 0;
  let copiedBytes = 0;
  for (const b of blobs) {
    const to = blobPath(path.join(root, 'blobs'), b.sha);
    const have = await fsp.stat(to).catch(() => undefined);
    if (have && have.size === b.size) reused++;
    else {
      jobs.push({ from: blobPath(blobRoot, b.sha), to, mode: 0o400 });
      copiedBytes += b.size;
    }
  }
  await copyMany(jobs, options.concurrency ?? 8);
  await fsp.writeFile(path.join(snap, 'blobs.txt'), blobs.map((b) => `${b.sha} ${b.size}\n`).join(''), {
    mode: fileMode,
  });
  const manifest: SnapshotManifest = {
    format: backupFormat,
    version: 1,
    id,
    createdAt,
    atharVersion: version,
    dialect: database.kind,
    schema,
    database: dbFile,
    counts,
    blobs: { count: blobs.length, bytes: blobs.reduce((n, b) => n + b.size, 0) },
    keys,
  };
  const tmp = path.join(snap, 'snapshot.json.partial');
  await fsp.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: fileMode });
  await fsp.rename(tmp, path.join(snap, 'snapshot.json'));
  return {
    target: root,
    snapshot: id,
    dialect: database.kind,
    rows: Object.values(counts).reduce((a, b) => a + b, 0),
    blobs: { count: blobs.length, bytes: manifest.blobs.bytes, copied: jobs.length, copiedBytes, reused },
    keys,
    ms: Math.round(performance.now() - start),
  };
}

export interface RestoreReport {
  source: string;
  snapshot: string;
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
  rows: number;
  blobs: number;
  keys: string[];
  counts: TableCounts;
  ms: number;
}

/** The snapshot to restore: the one named, else the latest complete one. */
export function findSnapshot(source: string, id?: string): { dir: string; manifest: SnapshotManifest } {
  const root = path.resolve(source);
  const snaps = path.join(root, 'snapshots');
  if (!fs.existsSync(snaps))
    throw new BackupError(`${source} is not an athar backup (no snapshots/ folder)`, 'usage');
  const complete = fs
    .readdirSync(snaps)
    .filter((n) => fs.existsSync(path.join(snaps, n, 'snapshot.json')))
    .sort();
  const chosen = id ?? complete.at(-1);
  if (!chosen || !complete.includes(chosen)) {
    throw new BackupError(
      id
        ? `${source} has no complete snapshot ${id} (complete: ${complete.join(', ') || 'none'})`
        : `${source} holds no complete snapshot`,
      'usage',
    );
  }
  const manifest = JSON.parse(
    fs.readFileSync(path.join(snaps, chosen, 'snapshot.json'), 'utf8'),
  ) as SnapshotManifest;
  if (manifest.format !== backupFormat)
    throw new BackupError(`${source}: snapshot ${chosen} is not an athar backup`, 'usage');
  return { dir: path.join(snaps, chosen), manifest };
}

function isEmptyPlace(dir: string): boolean {
  return !fs.existsSync(dir) || (fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0);
}

/**
 * Restores a snapshot into an empty data folder (and, for PostgreSQL, an empty schema of the given database), then
 * counts every table and blob against the snapshot's counts. Refuses a place that holds anything.
 */
export async function restore(
  source: string,
  config: Config,
  options: { snapshot?: string; concurrency?: number } = {},
): Promise<RestoreReport> {
  const start = performance.now();
  const { dir, manifest } = findSnapshot(source, options.snapshot);
  const dataDir = config.dataDir;
  if (!isEmptyPlace(dataDir))
    throw new BackupError(`${dataDir} is not empty: restore goes into an empty or new folder only`, 'usage');
  if (manifest.dialect !== config.database.kind) {
    throw new BackupError(
      `snapshot ${manifest.id} is of a ${manifest.dialect} database; restore it into ${manifest.dialect === 'sqlite' ? 'SQLite (no --database-url, or sqlite:FILE)' : 'PostgreSQL (--database-url postgres://…)'}`,
      'usage',
    );
  }
  const blobRoot = config.blobs.root;
  if (!isEmptyPlace(blobRoot))
    throw new BackupError(`${blobRoot} is not empty: restore goes into an empty place only`, 'usage');
  if (config.database.kind === 'sqlite' && fs.existsSync(config.database.file)) {
    throw new BackupError(`${config.database.file} exists: restore goes into an empty place only`, 'usage');
  }
  await fsp.mkdir(dataDir, { recursive: true, mode: dirMode });
  let counts: TableCounts;
  try {
    if (config.database.kind === 'sqlite') {
      await fsp.mkdir(path.dirname(config.database.file), { recursive: true, mode: dirMode });
      await copyMany(
        [{ from: path.join(dir, manifest.database), to: config.database.file, mode: fileMode }],
        1,
      );
      counts = sqliteCounts(config.database.file);
    } else {
      counts = await restorePostgres(
        path.join(dir, manifest.database),
        config.database.url,
        manifest.schema ?? 'public',
      );
    }
  } catch (error) {
    if (error instanceof DatabaseCopyError)
      throw new BackupError(
        error.message,
        /empty place|not empty|holds/.test(error.message) ? 'usage' : 'failure',
      );
    throw error;
  }
  const keys: string[] = [];
  for (const name of manifest.keys) {
    await fsp.mkdir(path.join(dataDir, 'keys'), { recursive: true, mode: dirMode });
    await copyMany(
      [{ from: path.join(dir, 'keys', name), to: path.join(dataDir, 'keys', name), mode: fileMode }],
      1,
    );
    keys.push(name);
  }
  const backupBlobs = path.join(path.resolve(source), 'blobs');
  const wanted = fs
    .readFileSync(path.join(dir, 'blobs.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ')[0] as string);
  await fsp.mkdir(path.join(blobRoot, 'sha256'), { recursive: true, mode: dirMode });
  await copyMany(
    wanted.map((sha) => ({ from: blobPath(backupBlobs, sha), to: blobPath(blobRoot, sha), mode: 0o440 })),
    options.concurrency ?? 8,
  );
  const restoredBlobs = (await listBlobs(blobRoot)).length;
  const wrong = Object.entries(manifest.counts).filter(([table, n]) => counts[table] !== n);
  if (wrong.length > 0 || restoredBlobs !== manifest.blobs.count) {
    const said = wrong.map(([t, n]) => `${t}: ${counts[t] ?? 'missing'} rows, the snapshot says ${n}`);
    if (restoredBlobs !== manifest.blobs.count)
      said.push(`blobs: ${restoredBlobs}, the snapshot says ${manifest.blobs.count}`);
    throw new BackupError(`the restore does not match snapshot ${manifest.id}: ${said.join('; ')}`);
  }
  return {
    source: path.resolve(source),
    snapshot: manifest.id,
    dialect: manifest.dialect,
    dataDir,
    rows: Object.values(counts).reduce((a, b) => a + b, 0),
    blobs: restoredBlobs,
    keys,
    counts,
    ms: Math.round(performance.now() - start),
  };
}

export interface SnapshotSummary {
  id: string;
  /** False for a snapshot whose backup never finished (no snapshot.json): it is never restored. */
  complete: boolean;
  createdAt: string | null;
  dialect: 'sqlite' | 'postgres' | null;
  rows: number | null;
  blobs: { count: number; bytes: number } | null;
  keys: string[];
  databaseBytes: number | null;
}

/** The snapshots of a backup folder, newest first; an absent folder holds none. */
export function listSnapshots(target: string): SnapshotSummary[] {
  const snaps = path.join(path.resolve(target), 'snapshots');
  if (!fs.existsSync(snaps)) return [];
  const out: SnapshotSummary[] = [];
  for (const id of fs.readdirSync(snaps).sort().reverse()) {
    const dir = path.join(snaps, id);
    if (!fs.statSync(dir).isDirectory()) continue;
    const file = path.join(dir, 'snapshot.json');
    if (!fs.existsSync(file)) {
      out.push({
        id,
        complete: false,
        createdAt: null,
        dialect: null,
        rows: null,
        blobs: null,
        keys: [],
        databaseBytes: null,
      });
      continue;
    }
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as SnapshotManifest;
    const db = fs.statSync(path.join(dir, m.database), { throwIfNoEntry: false });
    out.push({
      id,
      complete: m.format === backupFormat,
      createdAt: m.createdAt,
      dialect: m.dialect,
      rows: Object.values(m.counts).reduce((a, b) => a + b, 0),
      blobs: m.blobs,
      keys: m.keys,
      databaseBytes: db?.size ?? null,
    });
  }
  return out;
}

export interface SnapshotCheck {
  snapshot: string;
  ok: boolean;
  blobsChecked: number;
  bytesChecked: number;
  /** Each fault, naming the file: a missing or changed blob, a missing database copy or key. */
  problems: string[];
}

/**
 * Checks a snapshot without restoring it: the database copy and every key it lists are there, and every blob it
 * needs is in the backup folder with its SHA-256 (each re-hashed). A restore drill without a second place.
 */
export async function checkSnapshot(
  target: string,
  id: string,
  onProgress?: (done: number, total: number) => void,
): Promise<SnapshotCheck> {
  const { dir, manifest } = findSnapshot(target, id);
  const problems: string[] = [];
  if (!fs.existsSync(path.join(dir, manifest.database)))
    problems.push(`${manifest.database}: the database copy is missing`);
  for (const key of manifest.keys)
    if (!fs.existsSync(path.join(dir, 'keys', key))) problems.push(`keys/${key}: missing`);
  const wanted = fs
    .readFileSync(path.join(dir, 'blobs.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', size = '0'] = line.split(' ');
      return { sha, size: Number(size) };
    });
  if (wanted.length !== manifest.blobs.count)
    problems.push(`blobs.txt lists ${wanted.length} blobs; the snapshot counted ${manifest.blobs.count}`);
  const blobs = path.join(path.resolve(target), 'blobs');
  let bytes = 0;
  let done = 0;
  for (const b of wanted) {
    const file = blobPath(blobs, b.sha);
    const rel = path.relative(path.resolve(target), file);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (!stat) problems.push(`${rel}: missing`);
    else if (stat.size !== b.size) problems.push(`${rel}: ${stat.size} bytes, the snapshot says ${b.size}`);
    else {
      const hash = createHash('sha256');
      for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
      if (hash.digest('hex') !== b.sha) problems.push(`${rel}: its bytes no longer hash to its name`);
      bytes += stat.size;
    }
    onProgress?.(++done, wanted.length);
  }
  return {
    snapshot: manifest.id,
    ok: problems.length === 0,
    blobsChecked: done,
    bytesChecked: bytes,
    problems,
  };
}
