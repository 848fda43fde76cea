import { describe, expect, it } from 'vitest';
import { type Hash, leafHash, toHex } from './hash.js';
import {
  decodeBundle,
  edgeTiles,
  encodeBundle,
  entriesPath,
  formatTileIndex,
  parseTilePath,
  TileSet,
  TreeBuilder,
  tileKey,
  tilePath,
  tilesForPlan,
  tileWidthAt,
} from './tiles.js';
import { inclusionPlan, resolvePlan, treeRoot, verifyInclusion } from './tree.js';

describe('tile paths', () => {
  it.each([
    [0, '000'],
    [7, '007'],
    [999, '999'],
    [1000, 'x001/000'],
    [1234067, 'x001/x234/067'],
  ])('writes tile index %i as %s', (index, path) => {
    expect(formatTileIndex(index)).toBe(path);
  });

  it.each([
    ['tile/0/000', { kind: 'hashes', level: 0, index: 0, width: 256 }],
    ['tile/1/x001/x234/067', { kind: 'hashes', level: 1, index: 1234067, width: 256 }],
    ['tile/2/005.p/17', { kind: 'hashes', level: 2, index: 5, width: 17 }],
    ['tile/entries/x001/234.p/255', { kind: 'entries', index: 1234, width: 255 }],
    ['tile/entries/000', { kind: 'entries', index: 0, width: 256 }],
    ['tile/63/000.p/1', { kind: 'hashes', level: 63, index: 0, width: 1 }],
  ])('reads %s', (path, parsed) => {
    expect(parseTilePath(path)).toEqual(parsed);
  });

  it.each([
    'tile/00/000',
    'tile/64/000',
    'tile/0/00',
    'tile/0/0000',
    'tile/0/x001',
    'tile/0/001/234',
    'tile/0/x000/001',
    'tile/0/000.p/0',
    'tile/0/000.p/256',
    'tile/0/000.p/07',
    'tile/0/000.p',
    'tile/-1/000',
    'tiles/0/000',
    'tile/entries',
    'tile/0/abc',
  ])('refuses the malformed path %s', (path) => {
    expect(parseTilePath(path)).toBeUndefined();
  });

  it('round-trips paths for full and partial tiles and bundles', () => {
    for (const ref of [
      { level: 0, index: 1234067, width: 256 },
      { level: 3, index: 12, width: 9 },
    ]) {
      expect(parseTilePath(tilePath(ref))).toEqual({ kind: 'hashes', ...ref });
    }
    expect(entriesPath(1000, 3)).toBe('tile/entries/x001/000.p/3');
  });
});

describe('the tiles of a tree', () => {
  it('lays out a tree of 70,000 entries as c2sp.org/tlog-tiles describes', () => {
    expect(tileWidthAt(0, 272, 70_000)).toBe(256);
    expect(tileWidthAt(0, 273, 70_000)).toBe(112);
    expect(tileWidthAt(0, 274, 70_000)).toBe(0);
    expect(tileWidthAt(1, 0, 70_000)).toBe(256);
    expect(tileWidthAt(1, 1, 70_000)).toBe(17);
    expect(tileWidthAt(2, 0, 70_000)).toBe(1);
    expect(tileWidthAt(3, 0, 70_000)).toBe(0);
    expect(edgeTiles(70_000)).toEqual([
      { level: 0, index: 273, width: 112 },
      { level: 1, index: 1, width: 17 },
      { level: 2, index: 0, width: 1 },
    ]);
  });

  it('represents 256 entries by a full level-0 tile and a level-1 tile of width 1', () => {
    expect(tileWidthAt(0, 0, 256)).toBe(256);
    expect(edgeTiles(256)).toEqual([{ level: 1, index: 0, width: 1 }]);
    expect(edgeTiles(0)).toEqual([]);
  });

  it('builds the same tiles in one run as in many, and proves entries across tile boundaries', () => {
    const size = 70_000;
    const leaves = Array.from({ length: size }, (_, i) => leafHash(Buffer.from(`synthetic ${i}`)));
    const once = new TreeBuilder();
    for (const leaf of leaves) once.append(leaf);
    const stored = new Map<string, Uint8Array>();
    for (const t of once.takeChanged()) stored.set(tileKey(t.level, t.index), t.hashes);

    // Resume from the stored edge every 999 entries, as the sequencer does batch after batch.
    let resumed = new TreeBuilder();
    const again = new Map<string, Uint8Array>();
    for (let i = 0; i < size; i++) {
      if (i % 999 === 0) {
        for (const t of resumed.takeChanged()) again.set(tileKey(t.level, t.index), t.hashes);
        const edge = new Map(
          edgeTiles(i).map((t) => [t.level, again.get(tileKey(t.level, t.index)) as Uint8Array]),
        );
        resumed = new TreeBuilder(i, edge);
      }
      resumed.append(leaves[i] as Hash);
    }
    for (const t of resumed.takeChanged()) again.set(tileKey(t.level, t.index), t.hashes);
    expect([...again.keys()].sort()).toEqual([...stored.keys()].sort());
    for (const [key, bytes] of stored) expect(toHex(again.get(key) as Uint8Array)).toBe(toHex(bytes));

    const tiles = new TileSet(stored);
    const root = treeRoot(size, tiles.read);
    expect(toHex(once.root())).toBe(toHex(root));
    for (const index of [0, 255, 256, 65_535, 65_536, 69_887, 69_888, 69_999]) {
      const plan = inclusionPlan(index, size);
      expect(tilesForPlan(plan, size).every((t) => stored.has(tileKey(t.level, t.index)))).toBe(true);
      expect(verifyInclusion(index, size, leaves[index] as Hash, resolvePlan(plan, tiles.read), root)).toBe(
        true,
      );
    }
  });

  it('refuses to resume from an edge that is missing', () => {
    expect(() => new TreeBuilder(300, new Map())).toThrow(/tile tile\/0\/001 holds 0 hashes, 44 are needed/);
  });
});

describe('entry bundles', () => {
  it('prefixes each entry with its big-endian uint16 length', () => {
    const bundle = encodeBundle([Buffer.from('ab'), Buffer.alloc(0), Buffer.from('c')]);
    expect(bundle.toString('hex')).toBe('0002616200000001' + '63');
    expect(decodeBundle(bundle)?.map((e) => Buffer.from(e).toString())).toEqual(['ab', '', 'c']);
  });

  it('notices a bundle cut short', () => {
    expect(decodeBundle(Buffer.from('000561', 'hex'))).toBeUndefined();
    expect(decodeBundle(Buffer.from('00', 'hex'))).toBeUndefined();
  });

  it('refuses entries longer than 65,535 bytes', () => {
    expect(() => encodeBundle([Buffer.alloc(65_536)])).toThrow(RangeError);
  });
});
