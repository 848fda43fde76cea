import { hash as oneShotHash } from 'node:crypto';

/** A Merkle tree hash: 32 bytes of SHA-256. */
export type Hash = Uint8Array;

export const hashSize = 32;

const leafPrefix = Buffer.from([0x00]);
const nodePrefix = Buffer.from([0x01]);

/** RFC 9162 §2.1.1: the hash of a leaf is SHA-256(0x00 ‖ entry). */
export function leafHash(entry: Uint8Array): Hash {
  return oneShotHash('sha256', Buffer.concat([leafPrefix, entry]), 'buffer');
}

// One buffer reused for every interior node: proofs and tiles hash hundreds of pairs in a row.
const nodeInput = Buffer.alloc(1 + 2 * hashSize);
nodeInput[0] = 0x01;

/** RFC 9162 §2.1.1: an interior node is SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Hash {
  if (left.length !== hashSize || right.length !== hashSize) {
    return oneShotHash('sha256', Buffer.concat([nodePrefix, left, right]), 'buffer');
  }
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + hashSize);
  return oneShotHash('sha256', nodeInput, 'buffer');
}

/** The root of the empty tree: SHA-256 of nothing. */
export const emptyRoot: Hash = oneShotHash('sha256', Buffer.alloc(0), 'buffer');

export function sha256Hex(data: Uint8Array | string): string {
  return oneShotHash('sha256', data, 'hex');
}

export function equalHashes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

export function toBase64(hash: Uint8Array): string {
  return Buffer.from(hash).toString('base64');
}

export function toHex(hash: Uint8Array): string {
  return Buffer.from(hash).toString('hex');
}
