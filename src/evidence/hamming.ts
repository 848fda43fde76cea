import type { PdqHash } from './pdq.js';

/** Set bits in a 32-bit integer (SWAR popcount). */
export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** How many of the 256 bits differ between two PDQ hashes. */
export function hammingDistance(a: PdqHash, b: PdqHash): number {
  let d = 0;
  for (let i = 0; i < 32; i += 4) {
    const x = ((a[i]! << 24) | (a[i + 1]! << 16) | (a[i + 2]! << 8) | a[i + 3]!) >>> 0;
    const y = ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
    d += popcount32((x ^ y) >>> 0);
  }
  return d;
}

/** Distance between two hashes in hex; undefined when either is not 64 hex digits. */
export function hammingDistanceHex(a: string, b: string): number | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(a) || !/^[0-9a-fA-F]{64}$/.test(b)) return undefined;
  let d = 0;
  for (let i = 0; i < 64; i += 8) {
    d += popcount32((Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0);
  }
  return d;
}
