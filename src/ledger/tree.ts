import { emptyRoot, equalHashes, type Hash, hashSize, nodeHash } from './hash.js';

/**
 * The RFC 9162 §2.1 Merkle tree over the log's entries, in terms of complete subtrees. A proof is planned as a
 * list of nodes, each node being one or more complete subtrees folded right to left (the right edge of a tree
 * whose size is not a power of two); the caller reads those subtrees' hashes from wherever they are stored
 * (tiles) and folds them. Sizes and indexes are JavaScript numbers: exact up to 2^53 entries.
 */

/** The complete subtree of 2^height leaves that starts at leaf index · 2^height. */
export interface Subtree {
  readonly height: number;
  readonly index: number;
}

/** One node of a proof: the fold of these complete subtrees, left to right. */
export type PlannedNode = readonly Subtree[];

export type SubtreeReader = (subtree: Subtree) => Hash;

/** Leaves [start, end) as maximal aligned complete subtrees, left to right (largest first for our ranges). */
export function rangeSubtrees(start: number, end: number): Subtree[] {
  const out: Subtree[] = [];
  let at = start;
  while (at < end) {
    let height = 0;
    while (at % 2 ** (height + 1) === 0 && at + 2 ** (height + 1) <= end) height++;
    out.push({ height, index: at / 2 ** height });
    at += 2 ** height;
  }
  return out;
}

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** Folds hashes right to left: h0 ⊕ (h1 ⊕ (… ⊕ hn)). */
export function foldRight(hashes: readonly Hash[]): Hash {
  if (hashes.length === 0) return emptyRoot;
  let acc = hashes[hashes.length - 1] as Hash;
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i] as Hash, acc);
  return acc;
}

export function resolveNode(node: PlannedNode, read: SubtreeReader): Hash {
  return foldRight(node.map(read));
}

export function resolvePlan(plan: readonly PlannedNode[], read: SubtreeReader): Hash[] {
  return plan.map((node) => resolveNode(node, read));
}

/** The subtrees whose fold is the root of a tree of `size` leaves. */
export function rootPlan(size: number): PlannedNode {
  return rangeSubtrees(0, size);
}

/** MTH(D[0:size]); the empty tree's root is SHA-256 of nothing. */
export function treeRoot(size: number, read: SubtreeReader): Hash {
  return size === 0 ? emptyRoot : resolveNode(rootPlan(size), read);
}

/** RFC 9162 §2.1.3.1 PATH(index, D[0:size]), as planned nodes, leaf's sibling first. */
export function inclusionPlan(index: number, size: number): PlannedNode[] {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) {
    throw new RangeError(`no entry ${index} in a tree of ${size}`);
  }
  const out: PlannedNode[] = [];
  const path = (m: number, lo: number, hi: number): void => {
    if (hi - lo <= 1) return;
    const k = splitPoint(hi - lo);
    if (m < lo + k) {
      path(m, lo, lo + k);
      out.push(rangeSubtrees(lo + k, hi));
    } else {
      path(m, lo + k, hi);
      out.push(rangeSubtrees(lo, lo + k));
    }
  };
  path(index, 0, size);
  return out;
}

/** RFC 9162 §2.1.4.1 PROOF(from, D[0:to]), as planned nodes. Empty when from is 0 or equals to. */
export function consistencyPlan(from: number, to: number): PlannedNode[] {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 0 && from <= to)) {
    throw new RangeError(`no consistency proof from ${from} to ${to}`);
  }
  const out: PlannedNode[] = [];
  if (from === 0 || from === to) return out;
  const sub = (m: number, lo: number, hi: number, whole: boolean): void => {
    const n = hi - lo;
    if (m === n) {
      if (!whole) out.push(rangeSubtrees(lo, hi));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, lo, lo + k, whole);
      out.push(rangeSubtrees(lo + k, hi));
    } else {
      sub(m - k, lo + k, hi, false);
      out.push(rangeSubtrees(lo, lo + k));
    }
  };
  sub(from, 0, to, true);
  return out;
}

function validHashes(hashes: readonly Hash[]): boolean {
  return hashes.every((h) => h instanceof Uint8Array && h.length === hashSize);
}

const half = (x: number) => Math.floor(x / 2);
const odd = (x: number) => x % 2 === 1;

/**
 * RFC 9162 §2.1.3.2: the root that an inclusion proof leads to from a leaf hash, or undefined when the proof
 * cannot belong to that index and size (wrong length, index outside the tree, malformed hashes).
 */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leaf: Hash,
  proof: readonly Hash[],
): Hash | undefined {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size)) || index < 0 || index >= size) {
    return undefined;
  }
  if (leaf.length !== hashSize || !validHashes(proof)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        while (!(odd(fn) || fn === 0)) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : undefined;
}

export function verifyInclusion(
  index: number,
  size: number,
  leaf: Hash,
  proof: readonly Hash[],
  root: Hash,
): boolean {
  const found = rootFromInclusionProof(index, size, leaf, proof);
  return found !== undefined && equalHashes(found, root);
}

/**
 * RFC 9162 §2.1.4.2: whether the tree of `to` leaves with root `toRoot` extends the tree of `from` leaves with
 * root `fromRoot`. Equal sizes need an empty proof and equal roots; the empty tree precedes every tree.
 */
export function verifyConsistency(
  from: number,
  to: number,
  fromRoot: Hash,
  toRoot: Hash,
  proof: readonly Hash[],
): boolean {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to)) || from < 0 || from > to) return false;
  if (fromRoot.length !== hashSize || toRoot.length !== hashSize || !validHashes(proof)) return false;
  if (from === to) return proof.length === 0 && equalHashes(fromRoot, toRoot);
  if (from === 0) return proof.length === 0 && equalHashes(fromRoot, emptyRoot);
  if (proof.length === 0) return false;
  const path = Number.isInteger(Math.log2(from)) ? [fromRoot, ...proof] : [...proof];
  let fn = from - 1;
  let sn = to - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Hash;
  let sr = path[0] as Hash;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        while (!(odd(fn) || fn === 0)) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalHashes(fr, fromRoot) && equalHashes(sr, toRoot);
}
