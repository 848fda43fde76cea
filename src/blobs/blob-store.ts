import type { Readable } from 'node:stream';

export interface PutResult {
  sha256: string;
  size: number;
  /** True when the content was already stored (nothing was written). */
  existed: boolean;
}

export interface VerifyResult {
  sha256: string;
  ok: boolean;
  /** What was found when not ok: the hash of the bytes on disk, or 'missing'. */
  found?: string;
  size?: number;
}

/**
 * Content-addressed storage of originals and derived views. A blob's name is the SHA-256 of its bytes; once
 * `put` returns, the bytes are durable. Blobs are never modified or deleted through this interface.
 */
export interface BlobStore {
  /** Stores bytes from a stream or buffer; when `expectedSha256` is given, refuses content that differs. */
  put(content: Readable | Buffer | Uint8Array, options?: { expectedSha256?: string }): Promise<PutResult>;
  has(sha256: string): Promise<boolean>;
  /** A stream of the stored bytes; rejects with BlobNotFoundError when absent. */
  open(sha256: string): Promise<Readable>;
  size(sha256: string): Promise<number | undefined>;
  /** Re-hashes the stored bytes. */
  verify(sha256: string): Promise<VerifyResult>;
  /** Every stored hash (for verification sweeps). */
  list(): AsyncIterable<string>;
  /** Where the store lives, for messages. */
  readonly location: string;
}

export class BlobNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`blob ${sha256} is not in the store`);
    this.name = 'BlobNotFoundError';
  }
}

export class BlobIntegrityError extends Error {
  constructor(
    readonly expected: string,
    readonly found: string,
  ) {
    super(`content hashes to ${found}, expected ${expected}`);
    this.name = 'BlobIntegrityError';
  }
}

export function isSha256Hex(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}
