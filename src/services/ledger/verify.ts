import fs from 'node:fs';
import type { BlobStore } from '../../blobs/blob-store.js';
import type { Config } from '../../config/config.js';
import { parseCheckpoint } from '../../ledger/checkpoint.js';
import {
  type CoveredTable,
  coveredColumns,
  coveredTables,
  parseEntry,
  rowDigest,
} from '../../ledger/entries.js';
import { equalHashes, type Hash, hashSize, leafHash, toBase64 } from '../../ledger/hash.js';
import {
  type Ed25519Key,
  ed25519Verifier,
  formatVerifierKey,
  openNote,
  parseSignerKey,
} from '../../ledger/note.js';
import { TreeBuilder, tilePath, tileWidth } from '../../ledger/tiles.js';
import { normalize } from '../../names/index.js';
import { IntegrityRepository } from '../../store/repositories/integrity.js';
import { LedgerRepository } from '../../store/repositories/ledger.js';
import type { Db, Store } from '../../store/store.js';
import { ledgerKeyFile, recordedVerifierKey } from './key.js';
import { type EvidenceCheckOptions, type EvidenceCheckSummary, verifyEvidence } from './verify-evidence.js';

/**
 * `athar verify`: checks, without trusting the database, that nothing the log covers was altered or removed.
 * 1. Blobs: every stored blob re-hashed; every blob an evidence item names is present.
 * 2. Log: every checkpoint's signature against the trusted verifier key; the tree rebuilt from the stored
 *    entries and compared hash by hash with the stored tiles, and root by root with the signed checkpoints.
 * 3. Rows: every row of a covered table compared with the latest entry that vouches for it (ledger_rows is only
 *    an index: step 2 checks it against the entries, so editing it does not hide an edit).
 * Every problem names the item, the entry, and what was expected against what was found.
 */

export const faultCodes = [
  'blob_corrupt',
  'blob_missing',
  'key_missing',
  'key_mismatch',
  'checkpoint_signature',
  'checkpoint_malformed',
  'checkpoint_beyond_log',
  'root_mismatch',
  'entry_missing',
  'entry_malformed',
  'tile_mismatch',
  'tile_missing',
  'size_mismatch',
  'row_index',
  'row_changed',
  'row_deleted',
  'row_unlogged',
  'key_file_missing',
  'key_unrecorded',
  'checkpoint_deleted',
  'checkpoint_rollback',
  'ledger_index',
  'derived_changed',
  'annotation_changed',
  'annotation_deleted',
  'annotation_unlogged',
  'annotation_link',
  'view_pointer',
  'graphic_changed',
  'location_changed',
  'run_changed',
] as const;
export type FaultCode = (typeof faultCodes)[number];

export interface VerifyProblem {
  code: FaultCode;
  /** One line: what is wrong, where, expected against found. */
  message: string;
  table?: string;
  id?: string;
  sha256?: string;
  entry?: number;
  tile?: string;
  checkpoint?: number;
  expected?: string;
  found?: string;
}

export interface VerifyReport {
  ok: boolean;
  origin: string | null;
  verifierKey: string | null;
  blobs: {
    checked: number;
    bytes: number;
    ms: number;
    /** Blobs no evidence item names (left by an ingest stopped before its rows committed, or planted). */
    stray: number;
  };
  /** What was checked of the evidence beyond the covered rows (verify-evidence.ts). */
  evidence: EvidenceCheckSummary & { ms: number };
  log: {
    entries: number;
    checkpoints: number;
    latestCheckpoint: number | null;
    /** Entries sequenced after the latest checkpoint: in the log, not yet signed. */
    unsigned: number;
    /** Entries staged by committed transactions and not yet sequenced. */
    staged: number;
    ms: number;
  };
  rows: { checked: number; ms: number };
  problems: VerifyProblem[];
  /** Problems beyond the listed ones (the list stops at maxProblems), by code. */
  omitted: Partial<Record<FaultCode, number>>;
  /** What a reader should know that is not a failure. */
  notes: string[];
}

export interface VerifyOptions {
  /** The verifier key to trust; by default the one recorded at init, cross-checked with the key file. */
  verifierKey?: Ed25519Key;
  maxProblems?: number;
  onProgress?: (phase: 'blobs' | 'log' | 'rows', done: number) => void;
  /**
   * A signed checkpoint kept outside the database (the note's text): the log must hold at least its entries and
   * their root must be its root, or the database was rolled back or rewritten.
   */
  checkpoint?: string;
  /** Re-decode images and compare PDQ and views: a sample of this many, or all. */
  recompute?: EvidenceCheckOptions['recompute'];
  decoder?: EvidenceCheckOptions['decoder'];
}

const entryPage = 4096;
const rowPage = 2000;

export class Problems {
  readonly list: VerifyProblem[] = [];
  readonly omitted: Partial<Record<FaultCode, number>> = {};
  constructor(private readonly max: number) {}
  add(problem: VerifyProblem): void {
    if (this.list.length < this.max) this.list.push(problem);
    else this.omitted[problem.code] = (this.omitted[problem.code] ?? 0) + 1;
  }
  get count(): number {
    return this.list.length + Object.values(this.omitted).reduce((a, b) => a + (b ?? 0), 0);
  }
}

interface Vouch {
  idx: number;
  sha256: string;
}

const rowKey = (table: string, id: string) => `${table}\u0000${id}`;

export async function verifyAll(
  ctx: { store: Store; blobs: BlobStore; config: Pick<Config, 'dataDir'> },
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const problems = new Problems(options.maxProblems ?? 1000);
  const notes: string[] = [];
  const blobs = await verifyBlobs(ctx.store, ctx.blobs, problems, notes, options.onProgress);
  const key = await trustedKey(ctx, options.verifierKey, problems, notes);
  const external =
    options.checkpoint === undefined ? undefined : readExternal(options.checkpoint, key, problems);
  const report = await ctx.store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const logStart = performance.now();
      const log = await verifyLog(trx, ctx.store, key, problems, notes, options.onProgress, external);
      const logMs = performance.now() - logStart;
      const rowStart = performance.now();
      const checked = await verifyRows(
        trx,
        ctx.store,
        log.staged,
        log.overrides,
        problems,
        options.onProgress,
      );
      const rowMs = Math.round(performance.now() - rowStart);
      const evidenceStart = performance.now();
      const evidence = await verifyEvidence(trx, ctx.blobs, problems, notes, {
        ...(options.recompute ? { recompute: options.recompute } : {}),
        ...(options.decoder ? { decoder: options.decoder } : {}),
      });
      return {
        log: { ...log.summary, ms: Math.round(logMs) },
        rows: { checked, ms: rowMs },
        evidence: { ...evidence, ms: Math.round(performance.now() - evidenceStart) },
      };
    });
  return {
    ok: problems.count === 0,
    origin: key?.name ?? null,
    verifierKey: key ? formatVerifierKey(key) : null,
    blobs,
    ...report,
    problems: problems.list,
    omitted: problems.omitted,
    notes,
  };
}

async function verifyBlobs(
  store: Store,
  blobs: BlobStore,
  problems: Problems,
  notes: string[],
  onProgress: VerifyOptions['onProgress'],
): Promise<VerifyReport['blobs']> {
  const start = performance.now();
  const present = new Set<string>();
  let bytes = 0;
  for await (const sha256 of blobs.list()) {
    present.add(sha256);
    const result = await blobs.verify(sha256);
    bytes += result.size ?? 0;
    if (!result.ok) {
      const items = await new IntegrityRepository(store.db).itemsNamingBlob(sha256);
      const named = items.length ? ` (evidence item ${items.join(', ')})` : '';
      problems.add({
        code: 'blob_corrupt',
        message: `blob ${sha256}${named} hashes to ${result.found}: its bytes were altered`,
        sha256,
        ...(items[0] ? { table: 'evidence_items', id: items[0] } : {}),
        expected: sha256,
        found: result.found ?? 'unreadable',
      });
    }
    onProgress?.('blobs', present.size);
  }
  let after = '';
  const named = new Set<string>();
  for (;;) {
    const page = await new IntegrityRepository(store.db).blobsPage(after, rowPage);
    for (const item of page) {
      for (const [role, sha] of [
        ['original', item.sha256],
        ['thumbnail', item.thumbnail_sha256],
        ['blurred view', item.blurred_sha256],
      ] as const) {
        if (sha) named.add(sha);
        if (sha && !present.has(sha)) {
          problems.add({
            code: 'blob_missing',
            message: `evidence item ${item.id}: its ${role} blob ${sha} is missing from ${blobs.location}`,
            table: 'evidence_items',
            id: item.id,
            sha256: sha,
            expected: sha,
            found: 'missing',
          });
        }
      }
    }
    if (page.length < rowPage) break;
    after = (page.at(-1) as { id: string }).id;
  }
  const stray = [...present].filter((sha) => !named.has(sha));
  if (stray.length > 0) {
    const shown = stray.slice(0, 5).join(', ') + (stray.length > 5 ? ', …' : '');
    notes.push(
      `${stray.length} blobs in ${blobs.location} belong to no evidence item (${shown}): an ingest stopped before its rows committed leaves such blobs; bytes put there by hand look the same`,
    );
  }
  return {
    checked: present.size,
    bytes,
    ms: Math.round(performance.now() - start),
    stray: stray.length,
  };
}

/** The key to verify checkpoints with: the caller's, else the one recorded at init, checked against the key file. */
async function trustedKey(
  ctx: { store: Store; config: Pick<Config, 'dataDir'> },
  given: Ed25519Key | undefined,
  problems: Problems,
  notes: string[],
): Promise<Ed25519Key | undefined> {
  const recorded = await recordedVerifierKey(ctx.store);
  const file = ledgerKeyFile(ctx.config);
  const exists = fs.existsSync(file);
  let fromFile: Ed25519Key | undefined;
  try {
    fromFile = exists ? parseSignerKey(fs.readFileSync(file, 'utf8')) : undefined;
  } catch (error) {
    notes.push(
      `the log key ${file} cannot be read here (${(error as NodeJS.ErrnoException).code}): not compared`,
    );
  }
  const checkedElsewhere = fromFile === undefined && exists;
  if (!exists) {
    // Without it no checkpoint can be signed again; a verifier given --key may be checking a copy without it.
    if (given) notes.push(`no log key at ${file}: this copy cannot sign checkpoints`);
    else
      problems.add({
        code: 'key_file_missing',
        message: `the log key ${file} is missing: the log can no longer be signed (restore it from its backup)`,
        found: 'missing',
      });
  }
  if (!recorded && (fromFile || given)) {
    problems.add({
      code: 'key_unrecorded',
      message: `the database no longer records the verifier key its log was signed with (meta ledger.vkey was removed)`,
      expected: fromFile ? formatVerifierKey(fromFile) : given ? formatVerifierKey(given) : undefined,
      found: 'missing',
    });
  }
  if (checkedElsewhere && !given && recorded) return recorded;
  if (given) return given;
  if (recorded && fromFile && formatVerifierKey(fromFile) !== formatVerifierKey(recorded)) {
    problems.add({
      code: 'key_mismatch',
      message: `the log key ${file} (${formatVerifierKey(fromFile)}) is not the verifier key recorded at init (${formatVerifierKey(recorded)})`,
      expected: formatVerifierKey(recorded),
      found: formatVerifierKey(fromFile),
    });
  }
  const key = recorded ?? fromFile;
  if (!key) {
    problems.add({
      code: 'key_missing',
      message: `no verifier key: none recorded in the database and no key at ${file} (give one with --key)`,
    });
  }
  return key;
}

/** The checkpoint kept elsewhere: signed by the trusted key, well-formed; its size and root. */
function readExternal(
  text: string,
  key: Ed25519Key | undefined,
  problems: Problems,
): { size: number; root: Hash } | undefined {
  const note = text.endsWith('\n') ? text : `${text}\n`;
  const cut = note.lastIndexOf('\n\n');
  const parsed = parseCheckpoint(cut >= 0 ? note.slice(0, cut + 1) : note);
  if (!parsed.ok) {
    problems.add({
      code: 'checkpoint_malformed',
      message: `the checkpoint given is not a checkpoint note: ${parsed.detail}`,
    });
    return undefined;
  }
  if (!key) return undefined;
  const opened = openNote(note, [ed25519Verifier(key)]);
  if (!opened.ok) {
    problems.add({
      code: 'checkpoint_signature',
      message: `the checkpoint given (size ${parsed.checkpoint.size}) is not signed by ${formatVerifierKey(key)}: ${opened.detail}`,
      checkpoint: parsed.checkpoint.size,
      found: opened.detail,
    });
    return undefined;
  }
  if (parsed.checkpoint.origin !== key.name) {
    problems.add({
      code: 'checkpoint_malformed',
      message: `the checkpoint given is of log ${parsed.checkpoint.origin}, not ${key.name}`,
      checkpoint: parsed.checkpoint.size,
    });
    return undefined;
  }
  return { size: parsed.checkpoint.size, root: parsed.checkpoint.root };
}

interface LogResult {
  summary: Omit<VerifyReport['log'], 'ms'>;
  staged: Map<string, Vouch>;
  overrides: Map<string, Vouch>;
}

async function verifyLog(
  trx: Db,
  store: Store,
  key: Ed25519Key | undefined,
  problems: Problems,
  notes: string[],
  onProgress: VerifyOptions['onProgress'],
  external?: { size: number; root: Hash },
): Promise<LogResult> {
  const repo = new LedgerRepository(trx, store.capabilities);
  const verifier = key ? ed25519Verifier(key) : undefined;

  // Checkpoints: signature, form, origin; their roots are compared as the tree is rebuilt.
  const roots = new Map<number, Hash>();
  const checkpoints = await repo.checkpoints();
  for (const cp of checkpoints) {
    const opened = verifier ? openNote(cp.note, [verifier]) : undefined;
    if (opened && !opened.ok) {
      problems.add({
        code: 'checkpoint_signature',
        message: `checkpoint ${cp.size} is not signed by ${key ? formatVerifierKey(key) : 'the log key'}: ${opened.detail}`,
        checkpoint: cp.size,
        expected: key ? `${key.name}+${key.keyId.toString(16).padStart(8, '0')}` : undefined,
        found: opened.detail,
      });
    }
    const text = cp.note.slice(0, cp.note.lastIndexOf('\n\n') + 1);
    const parsed = parseCheckpoint(text);
    if (!parsed.ok || parsed.checkpoint.size !== cp.size || (key && parsed.checkpoint.origin !== key.name)) {
      problems.add({
        code: 'checkpoint_malformed',
        message: `checkpoint ${cp.size}: ${
          !parsed.ok
            ? parsed.detail
            : parsed.checkpoint.size !== cp.size
              ? `its text says size ${parsed.checkpoint.size}`
              : `its origin is ${parsed.checkpoint.origin}, not ${key?.name}`
        }`,
        checkpoint: cp.size,
      });
    }
    if (parsed.ok) roots.set(cp.size, parsed.checkpoint.root);
  }
  const stateSize = await repo.size();
  const latest = checkpoints.at(-1);
  const tally = await repo.checkpointTally();
  if (tally && (checkpoints.length < tally.count || !checkpoints.some((c) => c.size === tally.latest))) {
    problems.add({
      code: 'checkpoint_deleted',
      message: Number.isNaN(tally.count)
        ? 'the tally of signed checkpoints (meta ledger.checkpoints) was altered'
        : `${tally.count} checkpoints were signed, the latest over ${tally.latest} entries; the database holds ${checkpoints.length}, the latest over ${latest?.size ?? 0}: checkpoints were deleted`,
      expected: `${tally.count} (latest ${tally.latest})`,
      found: `${checkpoints.length} (latest ${latest?.size ?? 'none'})`,
    });
  }
  if (external) {
    if (external.size > stateSize) {
      problems.add({
        code: 'checkpoint_rollback',
        message: `the checkpoint given signs ${external.size} entries, but the log holds ${stateSize}: the database was rolled back to an older state or entries were removed`,
        checkpoint: external.size,
        expected: String(external.size),
        found: String(stateSize),
      });
    }
  }
  for (const cp of checkpoints) {
    if (cp.size > stateSize) {
      problems.add({
        code: 'checkpoint_beyond_log',
        message: `checkpoint ${cp.size} was signed over ${cp.size} entries but the log holds ${stateSize}: entries were removed`,
        checkpoint: cp.size,
        expected: String(cp.size),
        found: String(stateSize),
      });
    }
  }

  // Staged entries (committed, not yet sequenced) are the latest word on the rows they name.
  const staged = new Map<string, Vouch>();
  const queue = await repo.queued(Number.MAX_SAFE_INTEGER);
  for (const q of queue) {
    const parsed = parseEntry(q.entry);
    if (!parsed.ok) continue;
    for (const r of parsed.entry.rows) staged.set(rowKey(r.table, r.id), { idx: -1, sha256: r.sha256 });
  }
  if (queue.length)
    notes.push(
      `${queue.length} entries are staged and not yet sequenced (the server sequences them; or run athar ledger checkpoint)`,
    );

  // The tree, rebuilt from the entries, against the stored tiles and the checkpoint roots.
  const builder = new TreeBuilder();
  const overrides = new Map<string, Vouch>();
  let confirmed = 0;
  const sortedRoots = [...roots.entries()].filter(([size]) => size <= stateSize).sort((a, b) => a[0] - b[0]);
  let nextRoot = 0;
  const matched: number[] = [];
  const missingTiles = new Set<string>();
  const mismatched: number[] = [];
  const checkRoots = () => {
    // The checkpoint kept elsewhere: its root is compared as the tree is rebuilt, like a stored checkpoint's.
    if (external && external.size === builder.size && external.size <= stateSize) {
      const rebuilt = builder.root();
      if (!equalHashes(rebuilt, external.root))
        problems.add({
          code: 'checkpoint_rollback',
          message: `the checkpoint given signs root ${toBase64(external.root)} over ${external.size} entries, but the first ${external.size} entries of this log give ${toBase64(rebuilt)}: this log is not consistent with it (rewritten or replaced)`,
          checkpoint: external.size,
          expected: toBase64(external.root),
          found: toBase64(rebuilt),
        });
    }
    while (nextRoot < sortedRoots.length && (sortedRoots[nextRoot] as [number, Hash])[0] === builder.size) {
      const [size, root] = sortedRoots[nextRoot] as [number, Hash];
      const rebuilt = builder.root();
      if (equalHashes(rebuilt, root)) matched.push(size);
      else {
        mismatched.push(size);
        problems.add({
          code: 'root_mismatch',
          message: `checkpoint ${size} signs root ${toBase64(root)}, but the first ${size} stored entries give ${toBase64(rebuilt)}`,
          checkpoint: size,
          expected: toBase64(root),
          found: toBase64(rebuilt),
        });
      }
      nextRoot++;
    }
  };
  checkRoots();

  for (let from = 0; from < stateSize; from += entryPage) {
    const to = Math.min(stateSize, from + entryPage);
    const rows = await repo.entries(from, to);
    const byIdx = new Map(rows.map((r) => [r.idx, r.entry]));
    const tiles = new Map((await repo.tiles(tileRange(from, to))).map((t) => [t.index, t.hashes] as const));
    const vouches: { table: CoveredTable; id: string; idx: number; sha256: string }[] = [];
    for (let idx = from; idx < to; idx++) {
      const tile = tiles.get(Math.floor(idx / tileWidth));
      const at = (idx % tileWidth) * hashSize;
      const stored = tile && tile.length >= at + hashSize ? tile.subarray(at, at + hashSize) : undefined;
      const text = byIdx.get(idx);
      if (text === undefined) {
        problems.add({
          code: 'entry_missing',
          message: `entry ${idx} is missing from the log (its leaf hash ${stored ? toBase64(stored) : 'is unknown'})`,
          entry: idx,
        });
        builder.append(stored ?? Buffer.alloc(hashSize));
      } else {
        const leaf = leafHash(Buffer.from(text, 'utf8'));
        if (!stored) {
          const path = tilePath({ level: 0, index: Math.floor(idx / tileWidth), width: tileWidth });
          if (!missingTiles.has(path)) {
            missingTiles.add(path);
            problems.add({
              code: 'tile_missing',
              message: `tile ${path} is missing or short: entry ${idx} has no stored leaf hash`,
              tile: path,
              entry: idx,
            });
          }
        } else if (!equalHashes(leaf, stored)) {
          const path = tilePath({ level: 0, index: Math.floor(idx / tileWidth), width: tileWidth });
          problems.add({
            code: 'tile_mismatch',
            message: `entry ${idx} hashes to ${toBase64(leaf)}, but tile ${path} holds ${toBase64(stored)} at position ${idx % tileWidth}: the entry or the tile was altered`,
            entry: idx,
            tile: path,
            expected: toBase64(stored),
            found: toBase64(leaf),
          });
        }
        builder.append(leaf);
        const parsed = parseEntry(text);
        if (!parsed.ok) {
          problems.add({
            code: 'entry_malformed',
            message: `entry ${idx} is malformed: ${parsed.detail}`,
            entry: idx,
          });
        } else {
          const seen = new Set<string>();
          for (const r of parsed.entry.rows) {
            if (seen.has(rowKey(r.table, r.id))) continue;
            seen.add(rowKey(r.table, r.id));
            vouches.push({ table: r.table, id: r.id, idx, sha256: r.sha256 });
          }
        }
      }
      checkRoots();
    }
    for (const tile of builder.takeCompleted()) {
      if (tile.level === 0) continue;
      await compareTile(repo, tile.level, tile.index, tile.hashes, problems);
    }
    confirmed += await checkIndex(repo, vouches, overrides, problems);
    onProgress?.('log', to);
  }
  for (const [level, hashes] of builder.edgeBytes()) {
    if (level === 0) continue;
    const index = Math.floor(Math.floor(builder.size / tileWidth ** level) / tileWidth);
    await compareTile(repo, level, index, hashes, problems);
  }

  const entryCount = await repo.entryCount();
  if (entryCount !== stateSize) {
    problems.add({
      code: 'size_mismatch',
      message: `the log's size is ${stateSize} but it holds ${entryCount} entries`,
      expected: String(stateSize),
      found: String(entryCount),
    });
  }
  if (mismatched.length > 0) {
    const lastGood = matched.filter((m) => m < (mismatched[0] as number)).at(-1) ?? 0;
    notes.push(
      matched.length > 0 && matched.at(-1) === latest?.size
        ? 'the latest checkpoint agrees with the entries'
        : `the entries no longer match what was signed: the first altered entry lies between ${lastGood} and ${mismatched[0]}`,
    );
  }

  // Every index row must be confirmed by the entry it points at; find the ones that are not.
  const indexRows = await repo.rowCount();
  if (confirmed !== indexRows) await findUnconfirmed(repo, problems);

  const unsigned = latest ? Math.max(0, stateSize - latest.size) : stateSize;
  if (unsigned > 0)
    notes.push(
      `${unsigned} entries after checkpoint ${latest?.size ?? 0} are not yet covered by a signed checkpoint`,
    );
  return {
    summary: {
      entries: stateSize,
      checkpoints: checkpoints.length,
      latestCheckpoint: latest?.size ?? null,
      unsigned,
      staged: queue.length,
    },
    staged,
    overrides,
  };
}

function tileRange(from: number, to: number): { level: number; index: number }[] {
  const out: { level: number; index: number }[] = [];
  for (let t = Math.floor(from / tileWidth); t * tileWidth < to; t++) out.push({ level: 0, index: t });
  return out;
}

async function compareTile(
  repo: LedgerRepository,
  level: number,
  index: number,
  rebuilt: Buffer,
  problems: Problems,
): Promise<void> {
  const stored = await repo.tile(level, index);
  const path = tilePath({ level, index, width: rebuilt.length / hashSize });
  if (!stored || stored.length < rebuilt.length) {
    problems.add({ code: 'tile_missing', message: `tile ${path} is missing or short`, tile: path });
    return;
  }
  for (let at = 0; at < rebuilt.length; at += hashSize) {
    const a = rebuilt.subarray(at, at + hashSize);
    const b = stored.subarray(at, at + hashSize);
    if (!equalHashes(a, b)) {
      problems.add({
        code: 'tile_mismatch',
        message: `tile ${path} holds ${toBase64(b)} at position ${at / hashSize}, but the entries give ${toBase64(a)}`,
        tile: path,
        expected: toBase64(a),
        found: toBase64(b),
      });
      return;
    }
  }
}

/** Checks ledger_rows against the entries of one page; returns how many index rows these entries confirm. */
async function checkIndex(
  repo: LedgerRepository,
  vouches: { table: CoveredTable; id: string; idx: number; sha256: string }[],
  overrides: Map<string, Vouch>,
  problems: Problems,
): Promise<number> {
  let confirmed = 0;
  for (const table of coveredTables) {
    const mine = vouches.filter((v) => v.table === table);
    if (mine.length === 0) continue;
    const index = new Map(
      (await repo.rowsFor(table, [...new Set(mine.map((v) => v.id))])).map((r) => [r.row_id, r] as const),
    );
    for (const v of mine) {
      const key = rowKey(table, v.id);
      const row = index.get(v.id);
      if (overrides.has(key) || !row || row.idx < v.idx || (row.idx === v.idx && row.sha256 !== v.sha256)) {
        if (!overrides.has(key)) {
          problems.add({
            code: 'row_index',
            message: row
              ? `ledger_rows says ${table}/${v.id} was last vouched for by entry ${row.idx} (${row.sha256}), but entry ${v.idx} says ${v.sha256}`
              : `ledger_rows has no record of ${table}/${v.id}, which entry ${v.idx} vouches for`,
            table,
            id: v.id,
            entry: v.idx,
            expected: v.sha256,
            found: row?.sha256 ?? 'missing',
          });
        }
        overrides.set(key, { idx: v.idx, sha256: v.sha256 });
      } else if (row.idx === v.idx) {
        confirmed++;
      }
    }
  }
  return confirmed;
}

/** The index rows whose entry does not vouch for them (added or redirected by hand). */
async function findUnconfirmed(repo: LedgerRepository, problems: Problems): Promise<void> {
  for (const table of coveredTables) {
    let after: string | null = null;
    for (;;) {
      const page = await repo.rowsPage(table, after, rowPage);
      const idxs = [...new Set(page.map((r) => r.idx))];
      const entries = new Map<number, string>();
      for (const idx of idxs) for (const e of await repo.entries(idx, idx + 1)) entries.set(e.idx, e.entry);
      for (const row of page) {
        const text = entries.get(row.idx);
        const parsed = text === undefined ? undefined : parseEntry(text);
        const named = parsed?.ok
          ? parsed.entry.rows.find((r) => r.table === table && r.id === row.row_id)
          : undefined;
        if (!named || named.sha256 !== row.sha256) {
          problems.add({
            code: 'row_index',
            message: `ledger_rows points ${table}/${row.row_id} at entry ${row.idx}, which does not vouch for it with ${row.sha256}`,
            table,
            id: row.row_id,
            entry: row.idx,
            expected: named?.sha256 ?? 'no such vouch',
            found: row.sha256,
          });
        }
      }
      if (page.length < rowPage) break;
      after = (page.at(-1) as { row_id: string }).row_id;
    }
  }
}

/** Columns outside the digest that verify re-derives or checks against the log (issue 21, Reliability 2). */
const derivedColumns: Partial<Record<CoveredTable, readonly string[]>> = {
  custody_events: ['ledger_index'],
  records: ['name_normalized'],
};

function checkDerived(
  table: CoveredTable,
  row: Record<string, unknown>,
  vouch: Vouch,
  problems: Problems,
): void {
  const id = row.id as string;
  if (table === 'custody_events') {
    // The sequencer notes the entry that logged the event; staged events have none yet.
    const expected = vouch.idx < 0 ? null : vouch.idx;
    const found = row.ledger_index === null ? null : Number(row.ledger_index);
    if (found !== expected)
      problems.add({
        code: 'ledger_index',
        message: `custody event ${id} says it is log entry ${found ?? 'none'}, but entry ${expected ?? 'none'} logged it`,
        table,
        id,
        expected: String(expected),
        found: String(found),
      });
  } else if (table === 'records') {
    const parts = [row.first_name, row.father_name, row.grandfather_name, row.family_name].filter(
      (p): p is string => typeof p === 'string',
    );
    const again = normalize(parts.length > 0 ? parts.join(' ') : ((row.full_name as string | null) ?? ''));
    const expected = again === '' ? null : again;
    if ((row.name_normalized ?? null) !== expected)
      problems.add({
        code: 'derived_changed',
        message: `record ${id}: its matching name is ${JSON.stringify(row.name_normalized)}, but its names give ${JSON.stringify(expected)} (search and linkage read the altered form)`,
        table,
        id,
        expected: String(expected),
        found: String(row.name_normalized),
      });
  }
}

async function verifyRows(
  trx: Db,
  store: Store,
  staged: Map<string, Vouch>,
  overrides: Map<string, Vouch>,
  problems: Problems,
  onProgress: VerifyOptions['onProgress'],
): Promise<number> {
  const repo = new LedgerRepository(trx, store.capabilities);
  const integrity = new IntegrityRepository(trx);
  let checked = 0;
  const seenOverrides = new Set<string>();
  for (const table of coveredTables) {
    const columns = [...(coveredColumns[table] as readonly string[]), ...(derivedColumns[table] ?? [])];
    let after = '';
    for (;;) {
      const page = await integrity.rowsPage(table, columns, after, rowPage);
      const index = new Map(
        (
          await repo.rowsFor(
            table,
            page.map((r) => r.id as string),
          )
        ).map((r) => [r.row_id, r] as const),
      );
      for (const row of page) {
        const id = row.id as string;
        const key = rowKey(table, id);
        if (overrides.has(key)) seenOverrides.add(key);
        const vouch = staged.get(key) ?? overrides.get(key) ?? index.get(id);
        const found = rowDigest(table, row);
        checked++;
        if (!vouch) {
          problems.add({
            code: 'row_unlogged',
            message: `${table}/${id} is in the database but no log entry vouches for it`,
            table,
            id,
            found,
          });
        } else {
          checkDerived(table, row, vouch, problems);
        }
        if (vouch && vouch.sha256 !== found) {
          const by = vouch.idx < 0 ? 'its staged entry' : `entry ${vouch.idx}`;
          problems.add({
            code: 'row_changed',
            message: `${table}/${id} was altered: ${by} vouches for ${vouch.sha256}, the row now digests to ${found}`,
            table,
            id,
            ...(vouch.idx >= 0 ? { entry: vouch.idx } : {}),
            expected: vouch.sha256,
            found,
          });
        }
      }
      onProgress?.('rows', checked);
      if (page.length < rowPage) break;
      after = (page.at(-1) as { id: string }).id;
    }
    // Rows the log vouches for that are gone.
    let afterIndex: string | null = null;
    for (;;) {
      const page = await repo.rowsPage(table, afterIndex, rowPage);
      const present = await integrity.existing(
        table,
        page.map((r) => r.row_id),
      );
      for (const r of page) {
        const key = rowKey(table, r.row_id);
        const vouch = overrides.get(key) ?? r;
        if (!present.has(r.row_id) && !staged.has(key)) {
          problems.add({
            code: 'row_deleted',
            message: `${table}/${r.row_id}, vouched for by entry ${vouch.idx}, is no longer in the database`,
            table,
            id: r.row_id,
            entry: vouch.idx,
            expected: vouch.sha256,
            found: 'missing',
          });
        }
        seenOverrides.add(key);
      }
      if (page.length < rowPage) break;
      afterIndex = (page.at(-1) as { row_id: string }).row_id;
    }
  }
  // Rows only the entries know of (their index row was removed too): they must exist.
  for (const [key, vouch] of overrides) {
    if (seenOverrides.has(key)) continue;
    const [table, id] = key.split('\u0000') as [CoveredTable, string];
    if ((await integrity.existing(table, [id])).size === 0) {
      problems.add({
        code: 'row_deleted',
        message: `${table}/${id}, vouched for by entry ${vouch.idx}, is no longer in the database`,
        table,
        id,
        entry: vouch.idx,
        expected: vouch.sha256,
        found: 'missing',
      });
    }
  }
  return checked;
}
