/**
 * The order of `count` unsigned 32-bit keys, ascending, stable: an LSD radix sort in two 16-bit passes. Blocking
 * sorts a million keys per rule; this is several times faster than a comparison sort and allocates three arrays.
 */
export function orderByKey(keys: Uint32Array, count: number): Int32Array {
  let order = new Int32Array(count);
  let scratch = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const buckets = new Int32Array(65536);
  for (let shift = 0; shift < 32; shift += 16) {
    buckets.fill(0);
    for (let i = 0; i < count; i++) {
      const digit = ((keys[order[i] as number] as number) >>> shift) & 0xffff;
      buckets[digit] = (buckets[digit] as number) + 1;
    }
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = buckets[d] as number;
      buckets[d] = sum;
      sum += c;
    }
    for (let i = 0; i < count; i++) {
      const index = order[i] as number;
      const digit = ((keys[index] as number) >>> shift) & 0xffff;
      const at = buckets[digit] as number;
      scratch[at] = index;
      buckets[digit] = at + 1;
    }
    const t = order;
    order = scratch;
    scratch = t;
  }
  return order;
}

/**
 * Keys with the record each belongs to, in two parallel arrays that grow as keys are pushed: a rule giving a record
 * several keys (blocking's and the match index's spelling-tolerant rules) fills one before it is sorted by key.
 */
export class KeyedRecords {
  keys: Uint32Array<ArrayBuffer>;
  records: Int32Array<ArrayBuffer>;
  count = 0;

  constructor(capacity: number) {
    this.keys = new Uint32Array(Math.max(16, capacity));
    this.records = new Int32Array(this.keys.length);
  }

  push(key: number, record: number): void {
    if (this.count === this.keys.length) {
      const keys = new Uint32Array(this.keys.length * 2);
      keys.set(this.keys);
      this.keys = keys;
      const records = new Int32Array(keys.length);
      records.set(this.records);
      this.records = records;
    }
    this.keys[this.count] = key;
    this.records[this.count++] = record;
  }
}

/** Records grouped by key: the distinct keys ascending, and per key its records, members[starts[k], starts[k + 1]). */
export interface PackedLists {
  keys: Uint32Array<ArrayBuffer>;
  starts: Int32Array<ArrayBuffer>;
  members: Int32Array<ArrayBuffer>;
}

/** Packs pushed keys into per-key lists (a record's order within a list: the order its keys were pushed). */
export function packByKey(list: KeyedRecords): PackedLists {
  const { keys, records, count } = list;
  const order = orderByKey(keys, count);
  let distinct = 0;
  const packedKeys = new Uint32Array(count);
  const starts = new Int32Array(count + 1);
  const members = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    const at = order[k] as number;
    const key = keys[at] as number;
    if (distinct === 0 || packedKeys[distinct - 1] !== key) {
      packedKeys[distinct] = key;
      starts[distinct] = k;
      distinct++;
    }
    members[k] = records[at] as number;
  }
  starts[distinct] = count;
  return { keys: packedKeys.slice(0, distinct), starts: starts.slice(0, distinct + 1), members };
}

/** A 32-bit mix of up to three non-negative integers (murmur3 finaliser), for composite blocking keys. */
export function mixKey(salt: number, x: number, y: number, z = 0): number {
  let h = Math.imul(salt ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ x ^ (h >>> 15), 0xc2b2ae35);
  h = Math.imul(h ^ y ^ (h >>> 13), 0x27d4eb2f);
  h = Math.imul(h ^ z ^ (h >>> 16), 0x165667b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** The first position in `values[from, to)` (ascending) whose value is not below `key`. */
export function lowerBound(values: ArrayLike<number>, key: number, from = 0, to = values.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position of `key` in the ascending `keys`, or -1. */
export function positionOf(keys: ArrayLike<number>, key: number): number {
  const at = lowerBound(keys, key);
  return at < keys.length && keys[at] === key ? at : -1;
}
