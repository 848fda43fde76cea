import { parseCheckpoint } from '../../ledger/checkpoint.js';
import { type Hash, leafHash, toBase64 } from '../../ledger/hash.js';
import {
  edgeTiles,
  encodeBundle,
  fullTileBytes,
  TileSet,
  TreeBuilder,
  tileKey,
  tilesForPlan,
  tileWidth,
} from '../../ledger/tiles.js';
import { consistencyPlan, inclusionPlan, type PlannedNode, resolvePlan } from '../../ledger/tree.js';
import { type CheckpointRow, LedgerRepository } from '../../store/repositories/ledger.js';
import type { Db, Store } from '../../store/store.js';

/** A request about the log that cannot be answered as asked (no such entry, a size beyond the tree). */
export class LedgerRequestError extends Error {
  constructor(
    message: string,
    readonly code: 'not_found' | 'bad_request',
  ) {
    super(message);
    this.name = 'LedgerRequestError';
  }
}

export interface InclusionProof {
  index: number;
  size: number;
  /** The entry's canonical JSON. */
  entry: string;
  leafHash: string;
  proof: string[];
  root: string;
  /** The signed checkpoint of this size, when there is one. */
  checkpoint: string | null;
}

export interface ConsistencyProof {
  from: number;
  to: number;
  proof: string[];
  fromRoot: string;
  toRoot: string;
  fromCheckpoint: string | null;
  toCheckpoint: string | null;
}

/** Full tiles never change: a small cache keeps the upper levels (and their interior hashes) in memory. */
class FullTileCache {
  private readonly tiles = new Map<string, Buffer>();
  constructor(private readonly capacity: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.tiles.get(key);
    if (hit) {
      this.tiles.delete(key);
      this.tiles.set(key, hit);
    }
    return hit;
  }

  set(key: string, bytes: Buffer): void {
    if (bytes.length !== fullTileBytes) return;
    this.tiles.set(key, bytes);
    if (this.tiles.size > this.capacity) this.tiles.delete(this.tiles.keys().next().value as string);
  }
}

/** Reads the log: checkpoints, tiles, entry bundles and proofs, from the stored tiles. */
export class LedgerLog {
  private readonly cache = new FullTileCache(4096);

  constructor(private readonly store: Store) {}

  private repo(db: Db = this.store.db): LedgerRepository {
    return new LedgerRepository(db, this.store.capabilities);
  }

  /** Loads the tiles these planned nodes read, from the cache or the database. */
  async tilesFor(plan: readonly PlannedNode[], size: number, db: Db = this.store.db): Promise<TileSet> {
    const wanted = tilesForPlan(plan, size);
    const loaded = new Map<string, Uint8Array>();
    const missing: { level: number; index: number }[] = [];
    for (const t of wanted) {
      const key = tileKey(t.level, t.index);
      const hit = this.cache.get(key);
      if (hit) loaded.set(key, hit);
      else missing.push(t);
    }
    for (const t of await this.repo(db).tiles(missing)) {
      const key = tileKey(t.level, t.index);
      this.cache.set(key, t.hashes);
      loaded.set(key, this.cache.get(key) ?? t.hashes);
    }
    return new TileSet(loaded);
  }

  /** The root of the tree's first `size` entries, from the stored tiles. */
  async root(size: number, db: Db = this.store.db): Promise<Hash> {
    const edge = new Map((await this.repo(db).tiles(edgeTiles(size))).map((t) => [t.level, t.hashes]));
    return new TreeBuilder(size, edge).root();
  }

  async size(): Promise<number> {
    return this.repo().size();
  }

  async latestCheckpoint(): Promise<CheckpointRow | undefined> {
    return this.repo().latestCheckpoint();
  }

  private async checkpointOf(size: number): Promise<string | null> {
    return (await this.repo().checkpoint(size))?.note ?? null;
  }

  /** The size proofs default to: the latest signed checkpoint's. */
  private async defaultSize(): Promise<number> {
    const latest = await this.latestCheckpoint();
    if (!latest)
      throw new LedgerRequestError(
        'the log has no checkpoint yet (run athar ledger checkpoint)',
        'not_found',
      );
    return latest.size;
  }

  private async checkSize(size: number): Promise<void> {
    const current = await this.size();
    if (!Number.isSafeInteger(size) || size < 0 || size > current) {
      throw new LedgerRequestError(`tree size ${size} is beyond the log's ${current} entries`, 'bad_request');
    }
  }

  /** Tile (level, index) at `width` hashes, or undefined when the log has not grown that far. */
  async tile(level: number, index: number, width: number): Promise<Buffer | undefined> {
    const key = tileKey(level, index);
    const bytes = this.cache.get(key) ?? (await this.repo().tile(level, index));
    if (!bytes || bytes.length < width * 32) return undefined;
    this.cache.set(key, bytes);
    return bytes.subarray(0, width * 32);
  }

  /** Entry bundle `index` of `width` entries, or undefined when the log has not grown that far. */
  async bundle(index: number, width: number): Promise<Buffer | undefined> {
    const from = index * tileWidth;
    const rows = await this.repo().entries(from, from + width);
    if (rows.length !== width || rows.some((r, i) => r.idx !== from + i)) return undefined;
    return encodeBundle(rows.map((r) => Buffer.from(r.entry, 'utf8')));
  }

  /** The audit path of entry `index` in the tree of `size` entries, from the stored tiles. */
  async inclusionPath(index: number, size: number): Promise<Hash[]> {
    const plan = inclusionPlan(index, size);
    const tiles = await this.tilesFor(plan, size);
    return resolvePlan(plan, tiles.read);
  }

  async inclusionProof(index: number, size?: number): Promise<InclusionProof> {
    const n = size ?? (await this.defaultSize());
    await this.checkSize(n);
    if (!Number.isSafeInteger(index) || index < 0 || index >= n) {
      throw new LedgerRequestError(`there is no entry ${index} in a tree of ${n}`, 'bad_request');
    }
    const [row] = await this.repo().entries(index, index + 1);
    if (!row) throw new LedgerRequestError(`entry ${index} is missing from the log`, 'not_found');
    const checkpoint = await this.checkpointOf(n);
    return {
      index,
      size: n,
      entry: row.entry,
      leafHash: toBase64(leafHash(Buffer.from(row.entry, 'utf8'))),
      proof: (await this.inclusionPath(index, n)).map(toBase64),
      root: toBase64(await this.root(n)),
      checkpoint,
    };
  }

  async consistencyProof(from: number, to?: number): Promise<ConsistencyProof> {
    const n = to ?? (await this.defaultSize());
    await this.checkSize(n);
    if (!Number.isSafeInteger(from) || from < 0 || from > n) {
      throw new LedgerRequestError(
        `no consistency proof from ${from} to ${n}: from must be 0…${n}`,
        'bad_request',
      );
    }
    const plan = consistencyPlan(from, n);
    const tiles = await this.tilesFor(plan, n);
    return {
      from,
      to: n,
      proof: resolvePlan(plan, tiles.read).map(toBase64),
      fromRoot: toBase64(await this.root(from)),
      toRoot: toBase64(await this.root(n)),
      fromCheckpoint: await this.checkpointOf(from),
      toCheckpoint: await this.checkpointOf(n),
    };
  }
}

/** The root a stored checkpoint note states (without checking its signature). */
export function checkpointRoot(note: string): Hash | undefined {
  const body = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const parsed = parseCheckpoint(body);
  return parsed.ok ? parsed.checkpoint.root : undefined;
}
