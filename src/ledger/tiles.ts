import { type Hash, hashSize, nodeHash } from './hash.js';
import { foldRight, type PlannedNode, rangeSubtrees, type Subtree } from './tree.js';

/**
 * Tiles per c2sp.org/tlog-tiles: the tree's hashes stored and served 256 at a time. A tile at level L holds the
 * hashes of consecutive complete subtrees of height 8·L; tile N at level L covers leaves [N·256^(L+1),
 * (N+1)·256^(L+1)). The rightmost tiles of a tree are partial (1–255 hashes); a partial tile is always a prefix of
 * the full tile it grows into, which is why one stored row per tile serves every width.
 */

export const tileHeight = 8;
export const tileWidth = 256;
export const fullTileBytes = tileWidth * hashSize;

export interface TileRef {
  readonly level: number;
  readonly index: number;
  /** Hashes in the tile, 1–256 (256: full). */
  readonly width: number;
}

export type TileRequest =
  | { readonly kind: 'hashes'; readonly level: number; readonly index: number; readonly width: number }
  | { readonly kind: 'entries'; readonly index: number; readonly width: number };

export function tileKey(level: number, index: number): string {
  return `${level}/${index}`;
}

/** A tile index as path elements: 1234067 → x001/x234/067 (every element but the last starts with x). */
export function formatTileIndex(index: number): string {
  let rest = index;
  const parts = [String(rest % 1000).padStart(3, '0')];
  rest = Math.floor(rest / 1000);
  while (rest > 0) {
    parts.unshift(`x${String(rest % 1000).padStart(3, '0')}`);
    rest = Math.floor(rest / 1000);
  }
  return parts.join('/');
}

const widthSuffix = (width: number) => (width < tileWidth ? `.p/${width}` : '');

/** `tile/<L>/<N>[.p/<W>]`, relative to the log's prefix. */
export function tilePath(tile: TileRef): string {
  return `tile/${tile.level}/${formatTileIndex(tile.index)}${widthSuffix(tile.width)}`;
}

/** `tile/entries/<N>[.p/<W>]`, relative to the log's prefix. */
export function entriesPath(index: number, width: number): string {
  return `tile/entries/${formatTileIndex(index)}${widthSuffix(width)}`;
}

/**
 * Reads a tile path (what follows the log's prefix, e.g. `tile/1/x001/234.p/7`), strictly: decimal level 0–63
 * without leading zeros, 3-digit index elements with x on all but the last, width 1–255. Undefined when malformed.
 */
export function parseTilePath(path: string): TileRequest | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'tile' || parts.length < 3) return undefined;
  const head = parts[1] as string;
  let level: number | undefined;
  if (head !== 'entries') {
    if (!/^(0|[1-9][0-9]?)$/.test(head) || Number(head) > 63) return undefined;
    level = Number(head);
  }
  let rest = parts.slice(2);
  let width = tileWidth;
  if (rest.length >= 2 && (rest[rest.length - 2] as string).endsWith('.p')) {
    const w = rest[rest.length - 1] as string;
    if (!/^[1-9][0-9]{0,2}$/.test(w) || Number(w) > 255) return undefined;
    width = Number(w);
    rest = [...rest.slice(0, -2), (rest[rest.length - 2] as string).slice(0, -2)];
  }
  let index = 0;
  for (let i = 0; i < rest.length; i++) {
    const element = rest[i] as string;
    const last = i === rest.length - 1;
    const match = last ? /^([0-9]{3})$/.exec(element) : /^x([0-9]{3})$/.exec(element);
    if (!match) return undefined;
    index = index * 1000 + Number(match[1]);
  }
  // A leading x000 element would give one index two paths.
  if (rest.length > 1 && rest[0] === 'x000') return undefined;
  if (!Number.isSafeInteger(index)) return undefined;
  return level === undefined ? { kind: 'entries', index, width } : { kind: 'hashes', level, index, width };
}

/** How many hashes tile (level, index) holds in a tree of `size` leaves: 0 (not yet begun) to 256. */
export function tileWidthAt(level: number, index: number, size: number): number {
  const hashesAtLevel = Math.floor(size / tileWidth ** level);
  return Math.max(0, Math.min(tileWidth, hashesAtLevel - index * tileWidth));
}

/** The rightmost, partial tile of each level of a tree of `size` leaves (empty ones left out). */
export function edgeTiles(size: number): TileRef[] {
  const out: TileRef[] = [];
  for (let level = 0; Math.floor(size / tileWidth ** level) > 0; level++) {
    const hashes = Math.floor(size / tileWidth ** level);
    const width = hashes % tileWidth;
    if (width > 0) out.push({ level, index: Math.floor(hashes / tileWidth), width });
  }
  return out;
}

interface SubtreeInTile {
  level: number;
  index: number;
  /** First hash of the group within the tile, and how many (a power of two ≤ 128, or 256 for a whole tile). */
  offset: number;
  count: number;
}

function locate(subtree: Subtree): SubtreeInTile {
  const level = Math.floor(subtree.height / tileHeight);
  const count = 2 ** (subtree.height - level * tileHeight);
  const first = subtree.index * count;
  return { level, index: Math.floor(first / tileWidth), offset: first % tileWidth, count };
}

/** The tile a complete subtree's hash is computed from, at its width in a tree of `size` leaves. */
export function tileOfSubtree(subtree: Subtree, size: number): TileRef {
  const { level, index } = locate(subtree);
  return { level, index, width: tileWidthAt(level, index, size) };
}

/** Every tile that the planned nodes read, once each. */
export function tilesForPlan(plan: readonly PlannedNode[], size: number): TileRef[] {
  const seen = new Map<string, TileRef>();
  for (const node of plan) {
    for (const subtree of node) {
      const tile = tileOfSubtree(subtree, size);
      seen.set(tileKey(tile.level, tile.index), tile);
    }
  }
  return [...seen.values()];
}

/** The Merkle tree hash of `count` consecutive hashes (count a power of two) starting at `offset`. */
export function completeHash(hashes: Uint8Array, offset: number, count: number): Hash {
  let layer: Hash[] = [];
  for (let i = 0; i < count; i++) {
    const at = (offset + i) * hashSize;
    layer.push(hashes.subarray(at, at + hashSize));
  }
  while (layer.length > 1) {
    const next: Hash[] = [];
    for (let i = 0; i < layer.length; i += 2) next.push(nodeHash(layer[i] as Hash, layer[i + 1] as Hash));
    layer = next;
  }
  return layer[0] as Hash;
}

/** A tile was shorter than a subtree needs: stored data is missing or truncated. */
export class TileDataError extends Error {
  constructor(
    readonly level: number,
    readonly index: number,
    readonly needed: number,
    readonly found: number,
  ) {
    super(`tile ${tilePath({ level, index, width: tileWidth })} holds ${found} hashes, ${needed} are needed`);
    this.name = 'TileDataError';
  }
}

// Every interior hash of a tile, computed once per tile buffer: proofs read many subtrees of the same upper
// tiles, and a full tile's 255 interior hashes cost about as much as one cold proof.
const layersOf = new WeakMap<Uint8Array, Hash[][]>();

function tileLayers(data: Uint8Array): Hash[][] {
  let layers = layersOf.get(data);
  if (layers) return layers;
  const base: Hash[] = [];
  for (let at = 0; at + hashSize <= data.length; at += hashSize) base.push(data.subarray(at, at + hashSize));
  layers = [base];
  for (let below = base; below.length >= 2; ) {
    const next: Hash[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) next.push(nodeHash(below[i] as Hash, below[i + 1] as Hash));
    layers.push(next);
    below = next;
  }
  layersOf.set(data, layers);
  return layers;
}

/**
 * Complete-subtree hashes read from a set of loaded tiles (keyed by tileKey). Reusing the same tile buffers
 * across TileSets reuses their interior hashes.
 */
export class TileSet {
  constructor(private readonly tiles: ReadonlyMap<string, Uint8Array>) {}

  readonly read = (subtree: Subtree): Hash => {
    const at = locate(subtree);
    const data = this.tiles.get(tileKey(at.level, at.index));
    const found = data ? Math.floor(data.length / hashSize) : 0;
    if (!data || found < at.offset + at.count) {
      throw new TileDataError(at.level, at.index, at.offset + at.count, found);
    }
    const layer = Math.log2(at.count);
    return tileLayers(data)[layer]?.[at.offset / at.count] as Hash;
  };
}

/** A tile's worth of hashes as stored: level, index and the bytes (width = bytes / 32). */
export interface TileData {
  level: number;
  index: number;
  hashes: Buffer;
}

/**
 * Grows the tiles of a tree leaf by leaf, keeping only its right edge (one partial tile per level) in memory.
 * The sequencer uses it to extend the stored tiles; `athar verify` uses it to rebuild every tile from the
 * entries and compare.
 */
export class TreeBuilder {
  private edge: Hash[][] = [];
  private dirtyLevels = new Set<number>();
  private completed: TileData[] = [];
  private count: number;

  /** Starts from a tree of `size` leaves whose partial edge tiles are given (level → bytes). */
  constructor(size = 0, edge: ReadonlyMap<number, Uint8Array> = new Map()) {
    this.count = size;
    for (const tile of edgeTiles(size)) {
      const bytes = edge.get(tile.level);
      if (!bytes || bytes.length < tile.width * hashSize) {
        throw new TileDataError(tile.level, tile.index, tile.width, bytes ? bytes.length / hashSize : 0);
      }
      const hashes: Hash[] = [];
      for (let i = 0; i < tile.width; i++) {
        hashes.push(Buffer.from(bytes.subarray(i * hashSize, (i + 1) * hashSize)));
      }
      this.edge[tile.level] = hashes;
    }
  }

  get size(): number {
    return this.count;
  }

  append(leaf: Hash): void {
    let hash = leaf;
    let level = 0;
    let hashesAtLevel = this.count;
    this.count++;
    for (;;) {
      const row = this.edge[level] ?? [];
      this.edge[level] = row;
      row.push(hash);
      this.dirtyLevels.add(level);
      if (row.length < tileWidth) return;
      const full = Buffer.concat(row);
      this.completed.push({ level, index: Math.floor(hashesAtLevel / tileWidth), hashes: full });
      this.edge[level] = [];
      hash = completeHash(full, 0, tileWidth);
      level++;
      hashesAtLevel = Math.floor(hashesAtLevel / tileWidth);
    }
  }

  /**
   * Tiles written since the last call: every full tile completed (in completion order), then the partial edge
   * tiles that grew, as they now stand.
   */
  takeChanged(): TileData[] {
    const out = this.completed;
    for (const level of [...this.dirtyLevels].sort((a, b) => a - b)) {
      const row = this.edge[level] ?? [];
      if (row.length === 0) continue;
      const index = Math.floor(Math.floor(this.count / tileWidth ** level) / tileWidth);
      out.push({ level, index, hashes: Buffer.concat(row) });
    }
    this.completed = [];
    this.dirtyLevels.clear();
    return out;
  }

  /** Full tiles completed since the last take, in completion order (the partial edge is left as it is). */
  takeCompleted(): TileData[] {
    const out = this.completed;
    this.completed = [];
    return out;
  }

  /** The partial tiles of the right edge, level → bytes. */
  edgeBytes(): Map<number, Buffer> {
    const out = new Map<number, Buffer>();
    this.edge.forEach((row, level) => {
      if (row.length > 0) out.set(level, Buffer.concat(row));
    });
    return out;
  }

  /** MTH of every leaf appended so far, from the right edge alone. */
  root(): Hash {
    const parts: Hash[] = [];
    for (let level = this.edge.length - 1; level >= 0; level--) {
      const row = this.edge[level] ?? [];
      if (row.length === 0) continue;
      const bytes = Buffer.concat(row);
      for (const subtree of rangeSubtrees(0, row.length)) {
        const count = 2 ** subtree.height;
        parts.push(completeHash(bytes, subtree.index * count, count));
      }
    }
    return foldRight(parts);
  }
}

/** Entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function encodeBundle(entries: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (entry.length > 0xffff) throw new RangeError(`entry of ${entry.length} bytes exceeds 65535`);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(entry.length);
    parts.push(length, Buffer.from(entry));
  }
  return Buffer.concat(parts);
}

/** Splits an entry bundle; undefined when a length runs past the end. */
export function decodeBundle(bundle: Uint8Array): Uint8Array[] | undefined {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bundle.length) {
    if (at + 2 > bundle.length) return undefined;
    const length = ((bundle[at] as number) << 8) | (bundle[at + 1] as number);
    at += 2;
    if (at + length > bundle.length) return undefined;
    out.push(bundle.subarray(at, at + length));
    at += length;
  }
  return out;
}
