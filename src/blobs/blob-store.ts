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

/** Bytes written by `BlobStore.stage`, durable only once `BlobStore.persist` has returned for them. */
export interface StagedBlob {
  readonly sha256: string;
  readonly size: number;
  /** True when the content was already stored: nothing was written, and persisting it costs nothing. */
  readonly existed: boolean;
}

/**
 * Content-addressed storage of originals and derived views. A blob's name is the SHA-256 of its bytes; once
 * `put` returns, the bytes are durable. Blobs are never modified or deleted through this interface.
 *
 * Many blobs can share one durability point instead: `stage` each (the bytes are written, not yet flushed),
 * then `persist` them together, and only then commit anything that names them. A crash before `persist`
 * returns may lose staged blobs, never leave one incomplete under its name.
 */
export interface BlobStore {
  /** Stores bytes from a stream or buffer; when `expectedSha256` is given, refuses content that differs. */
  put(content: Readable | Buffer | Uint8Array, options?: { expectedSha256?: string }): Promise<PutResult>;
  /** Writes bytes for a later `persist`; their SHA-256 is taken here, before anything waits. */
  stage(content: Buffer | Uint8Array): Promise<StagedBlob>;
  /**
   * Makes staged blobs durable under their names: each file flushed and moved into place, then each folder they
   * went into flushed once. Blobs of the same content, or already persisted, are handled once.
   */
  persist(blobs: readonly StagedBlob[]): Promise<void>;
  /** Gives up staged blobs that will not be persisted (removes what was written for them). */
  discard(blobs: readonly StagedBlob[]): Promise<void>;
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
