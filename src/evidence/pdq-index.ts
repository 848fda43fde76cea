import { popcount32 } from './hamming.js';
import type { PdqHash } from './pdq.js';

export interface Neighbour {
  id: string;
  distance: number;
}

const segments = 16;
const segmentValues = 1 << 16;
/** Beyond this radius probing costs more than reading every hash (2 bits per segment is already 137 probes). */
const maxProbedSegmentRadius = 2;

/**
 * Finds the PDQ hashes within a Hamming distance of a query, by multi-index hashing (Norouzi, Punjani and
 * Fleet, 2012): the 256 bits are cut into 16 segments of 16 bits, each indexed by its value. If two hashes differ
 * in at most d bits, then by the pigeonhole principle some segment differs in at most ⌊d / 16⌋ bits, so probing
 * each segment's value and its near values (17 probes per segment for d ≤ 31) finds every candidate; candidates
 * are then checked on all 256 bits. Memory: 4 MiB of bucket heads plus 96 bytes per hash.
 *
 * In memory and pure: the caller loads hashes from storage and keeps the index current.
 */
export class PdqIndex {
  private ids: string[] = [];
  private readonly positions = new Map<string, number>();
  /** Eight 32-bit words per hash, big-endian, in insertion order. */
  private words = new Uint32Array(8 * 1024);
  /** heads[s · 65536 + v]: the latest hash whose segment s has value v, or −1. */
  private readonly heads = new Int32Array(segments * segmentValues).fill(-1);
  /** next[n · 16 + s]: the previous hash in the same bucket of segment s, or −1. */
  private next = new Int32Array(segments * 1024);
  private seen = new Uint32Array(1024);
  private stamp = 0;

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  /** Adds a hash under an id; adding an id again is ignored (a stored item's hash does not change). */
  add(id: string, hash: PdqHash): void {
    if (this.positions.has(id)) return;
    const n = this.ids.length;
    this.grow(n + 1);
    this.ids.push(id);
    this.positions.set(id, n);
    for (let w = 0; w < 8; w++) this.words[n * 8 + w] = wordOf(hash, w);
    for (let s = 0; s < segments; s++) {
      const bucket = s * segmentValues + this.segment(n, s);
      this.next[n * segments + s] = this.heads[bucket]!;
      this.heads[bucket] = n;
    }
  }

  /** Every indexed hash within `maxDistance` bits of the query, nearest first (ties by id). */
  query(hash: PdqHash, maxDistance = 31): Neighbour[] {
    const q = new Uint32Array(8);
    for (let w = 0; w < 8; w++) q[w] = wordOf(hash, w);
    const radius = Math.floor(maxDistance / segments);
    const found: Neighbour[] = [];
    if (radius > maxProbedSegmentRadius) {
      for (let n = 0; n < this.ids.length; n++) this.check(n, q, maxDistance, found);
    } else {
      this.stamp = (this.stamp + 1) >>> 0;
      if (this.stamp === 0) {
        this.seen.fill(0);
        this.stamp = 1;
      }
      const probes = probeMasks(radius);
      for (let s = 0; s < segments; s++) {
        const value = segmentOf(q, s);
        for (const mask of probes) {
          for (
            let n = this.heads[s * segmentValues + (value ^ mask)]!;
            n !== -1;
            n = this.next[n * segments + s]!
          ) {
            if (this.seen[n] === this.stamp) continue;
            this.seen[n] = this.stamp;
            this.check(n, q, maxDistance, found);
          }
        }
      }
    }
    return found.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private check(n: number, q: Uint32Array, maxDistance: number, found: Neighbour[]): void {
    let d = 0;
    const base = n * 8;
    for (let w = 0; w < 8 && d <= maxDistance; w++) d += popcount32((this.words[base + w]! ^ q[w]!) >>> 0);
    if (d <= maxDistance) found.push({ id: this.ids[n]!, distance: d });
  }

  private segment(n: number, s: number): number {
    const word = this.words[n * 8 + (s >> 1)]!;
    return s & 1 ? word & 0xffff : word >>> 16;
  }

  private grow(count: number): void {
    if (count * 8 > this.words.length) {
      const capacity = Math.max(count, this.words.length / 4);
      const words = new Uint32Array(capacity * 8);
      words.set(this.words);
      this.words = words;
      const next = new Int32Array(capacity * segments);
      next.set(this.next);
      this.next = next;
      const seen = new Uint32Array(capacity);
      seen.set(this.seen);
      this.seen = seen;
    }
  }
}

function wordOf(hash: PdqHash, w: number): number {
  const i = w * 4;
  return ((hash[i]! << 24) | (hash[i + 1]! << 16) | (hash[i + 2]! << 8) | hash[i + 3]!) >>> 0;
}

function segmentOf(q: Uint32Array, s: number): number {
  const word = q[s >> 1]!;
  return s & 1 ? word & 0xffff : word >>> 16;
}

const probeCache = new Map<number, Uint32Array>();

/** Every 16-bit mask with at most `radius` bits set: the values to probe around a segment's own. */
function probeMasks(radius: number): Uint32Array {
  let masks = probeCache.get(radius);
  if (!masks) {
    const list: number[] = [];
    for (let m = 0; m < segmentValues; m++) if (popcount32(m) <= radius) list.push(m);
    masks = Uint32Array.from(list);
    probeCache.set(radius, masks);
  }
  return masks;
}
