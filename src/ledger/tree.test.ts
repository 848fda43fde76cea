import { describe, expect, it } from 'vitest';
import { emptyRoot, type Hash, leafHash, nodeHash, toHex } from './hash.js';
import { TileSet, TreeBuilder, tileKey } from './tiles.js';
import {
  consistencyPlan,
  inclusionPlan,
  resolvePlan,
  rootFromInclusionProof,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from './tree.js';

// RFC 6962 test vectors as published in transparency-dev/merkle (rfc6962/rfc6962_test.go, proof/verify_test.go).
const hex = (s: string) => Buffer.from(s, 'hex');
const leafData = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(hex);
const roots = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(hex);
const inclusionVectors: { index: number; size: number; proof: string[] }[] = [
  { index: 0, size: 1, proof: [] },
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const consistencyVectors: { from: number; to: number; proof: string[] }[] = [
  { from: 1, to: 1, proof: [] },
  {
    from: 1,
    to: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    from: 6,
    to: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    from: 2,
    to: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    from: 6,
    to: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

/** Tiles built from the given leaves, and a reader over them. */
function tilesFor(leaves: Hash[]): TileSet {
  const builder = new TreeBuilder();
  const tiles = new Map<string, Uint8Array>();
  for (const leaf of leaves) builder.append(leaf);
  for (const t of builder.takeChanged()) tiles.set(tileKey(t.level, t.index), t.hashes);
  return new TileSet(tiles);
}

/** RFC 6962 §2.1 written out recursively: the reference the tiled plans must agree with. */
function reference(leaves: Hash[]) {
  const memo = new Map<string, Hash>();
  const split = (n: number) => {
    let k = 1;
    while (k * 2 < n) k *= 2;
    return k;
  };
  const mth = (lo: number, hi: number): Hash => {
    const key = `${lo}:${hi}`;
    let h = memo.get(key);
    if (h) return h;
    if (hi - lo === 0) h = emptyRoot;
    else if (hi - lo === 1) h = leaves[lo] as Hash;
    else h = nodeHash(mth(lo, lo + split(hi - lo)), mth(lo + split(hi - lo), hi));
    memo.set(key, h);
    return h;
  };
  const path = (m: number, lo: number, hi: number): Hash[] => {
    if (hi - lo <= 1) return [];
    const k = split(hi - lo);
    return m < lo + k ? [...path(m, lo, lo + k), mth(lo + k, hi)] : [...path(m, lo + k, hi), mth(lo, lo + k)];
  };
  const sub = (m: number, lo: number, hi: number, whole: boolean): Hash[] => {
    if (m === hi - lo) return whole ? [] : [mth(lo, hi)];
    const k = split(hi - lo);
    return m <= k
      ? [...sub(m, lo, lo + k, whole), mth(lo + k, hi)]
      : [...sub(m - k, lo + k, hi, false), mth(lo, lo + k)];
  };
  return { mth, path, consistency: (m: number, n: number) => (m === 0 || m === n ? [] : sub(m, 0, n, true)) };
}

describe('RFC 9162 hashing', () => {
  it('hashes the empty tree, a leaf and a node as RFC 6962 does', () => {
    expect(toHex(emptyRoot)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(leafHash(Buffer.alloc(0)))).toBe(
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
    expect(toHex(leafHash(Buffer.from('L123456')))).toBe(
      '395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56',
    );
    expect(toHex(nodeHash(Buffer.from('N123'), Buffer.from('N456')))).toBe(
      'aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb',
    );
  });
});

describe('the published test vectors', () => {
  const leaves = leafData.map(leafHash);
  const tiles = tilesFor(leaves);

  it.each(roots.map((root, i) => [i + 1, root] as const))(
    'gives the published root for %i leaves',
    (size, root) => {
      expect(toHex(treeRoot(size, tiles.read))).toBe(toHex(root));
    },
  );

  it.each(inclusionVectors)('proves leaf $index of $size as published', ({ index, size, proof }) => {
    const made = resolvePlan(inclusionPlan(index, size), tiles.read);
    expect(made.map(toHex)).toEqual(proof);
    expect(verifyInclusion(index, size, leaves[index] as Hash, proof.map(hex), roots[size - 1] as Hash)).toBe(
      true,
    );
  });

  it.each(consistencyVectors)('proves $from consistent with $to as published', ({ from, to, proof }) => {
    const made = resolvePlan(consistencyPlan(from, to), tiles.read);
    expect(made.map(toHex)).toEqual(proof);
    expect(verifyConsistency(from, to, roots[from - 1] as Hash, roots[to - 1] as Hash, proof.map(hex))).toBe(
      true,
    );
  });

  it.each(inclusionVectors.filter((v) => v.proof.length > 0))(
    'rejects every corruption of the proof of leaf $index of $size',
    ({ index, size, proof }) => {
      const root = roots[size - 1] as Hash;
      const leaf = leaves[index] as Hash;
      const p = proof.map(hex);
      const flipped = p.map((_, i) =>
        p.map((h, j) => (i === j ? Buffer.from(h.map((b, k) => (k === 0 ? b ^ 8 : b))) : h)),
      );
      const probes: [number, number, Hash, Hash[], Hash][] = [
        [index - 1, size, leaf, p, root],
        [index + 1, size, leaf, p, root],
        [index ^ 2, size, leaf, p, root],
        [index, size * 2, leaf, p, root],
        [index, Math.floor(size / 2), leaf, p, root],
        [index, size, leafHash(Buffer.from('WrongLeaf')), p, root],
        [index, size, leaf, p, emptyRoot],
        [index, size, leaf, [...p, root], root],
        [index, size, leaf, [root, ...p], root],
        [index, size, leaf, p.slice(0, -1), root],
        [index, size, leaf, [Buffer.alloc(0), ...p], root],
        ...flipped.map((f): [number, number, Hash, Hash[], Hash] => [index, size, leaf, f, root]),
      ];
      for (const [i, n, l, pr, r] of probes) expect(verifyInclusion(i, n, l, pr, r)).toBe(false);
    },
  );

  it.each(consistencyVectors.filter((v) => v.proof.length > 0))(
    'rejects every corruption of the consistency proof from $from to $to',
    ({ from, to, proof }) => {
      const r1 = roots[from - 1] as Hash;
      const r2 = roots[to - 1] as Hash;
      const p = proof.map(hex);
      const probes: [number, number, Hash, Hash, Hash[]][] = [
        [from - 1, to, r1, r2, p],
        [from + 1, to, r1, r2, p],
        [from ^ 2, to, r1, r2, p],
        [from, to * 2, r1, r2, p],
        [from, Math.floor(to / 2), r1, r2, p],
        [from, to, r2, r1, p],
        [from, to, emptyRoot, r2, p],
        [from, to, r1, emptyRoot, p],
        [from, to, r1, r2, []],
        [from, to, r1, r2, [...p, r1]],
        [from, to, r1, r2, [...p, r2]],
        [from, to, r1, r2, [r1, ...p]],
        [from, to, r1, r2, [p[0] as Hash, ...p]],
        [from, to, r1, r2, p.slice(0, -1)],
        ...p.map((_, i): [number, number, Hash, Hash, Hash[]] => [
          from,
          to,
          r1,
          r2,
          p.map((h, j) => (i === j ? Buffer.from(h.map((b, k) => (k === 0 ? b ^ 16 : b))) : h)),
        ]),
      ];
      for (const [m, n, a, b, pr] of probes) expect(verifyConsistency(m, n, a, b, pr)).toBe(false);
    },
  );

  it('treats the trivial cases as transparency-dev does', () => {
    const r = roots[0] as Hash;
    expect(verifyConsistency(0, 0, emptyRoot, emptyRoot, [])).toBe(true);
    expect(verifyConsistency(0, 1, emptyRoot, r, [])).toBe(true);
    expect(verifyConsistency(1, 1, r, r, [])).toBe(true);
    expect(verifyConsistency(1, 1, r, emptyRoot, [])).toBe(false);
    expect(verifyConsistency(1, 0, r, emptyRoot, [])).toBe(false);
    expect(verifyConsistency(1, 1, r, r, [emptyRoot])).toBe(false);
    expect(verifyInclusion(0, 0, r, [], r)).toBe(false);
    expect(verifyInclusion(2, 1, r, [], r)).toBe(false);
    expect(verifyInclusion(0, 1, r, [], r)).toBe(true);
  });
});

describe('proofs over tiles for every tree of 1 to 300 entries', () => {
  const leaves = Array.from({ length: 300 }, (_, i) => leafHash(Buffer.from(`synthetic entry ${i}`)));
  const tiles = tilesFor(leaves);
  const ref = reference(leaves);

  it('gives the recursive root for every size', () => {
    for (let n = 1; n <= 300; n++) expect(toHex(treeRoot(n, tiles.read))).toBe(toHex(ref.mth(0, n)));
  });

  it('proves every index of every size, and each proof verifies only for its own leaf', () => {
    for (let n = 1; n <= 300; n++) {
      const root = ref.mth(0, n);
      for (let i = 0; i < n; i++) {
        const proof = resolvePlan(inclusionPlan(i, n), tiles.read);
        expect(proof.map(toHex)).toEqual(ref.path(i, 0, n).map(toHex));
        expect(verifyInclusion(i, n, leaves[i] as Hash, proof, root)).toBe(true);
        if (n > 1) expect(rootFromInclusionProof(i, n, leaves[(i + 1) % n] as Hash, proof)).not.toEqual(root);
      }
    }
  });

  it('proves every smaller size consistent with every size', () => {
    for (let n = 1; n <= 300; n++) {
      const root = ref.mth(0, n);
      for (let m = 1; m <= n; m++) {
        const proof = resolvePlan(consistencyPlan(m, n), tiles.read);
        expect(proof.length).toBe(ref.consistency(m, n).length);
        expect(verifyConsistency(m, n, ref.mth(0, m), root, proof)).toBe(true);
      }
    }
  });

  it('refuses to plan proofs outside the tree', () => {
    expect(() => inclusionPlan(5, 5)).toThrow(RangeError);
    expect(() => consistencyPlan(6, 5)).toThrow(RangeError);
  });
});
