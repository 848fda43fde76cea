import fs from 'node:fs';
import type { BlobStore } from '../blobs/blob-store.js';
import { FsBlobStore, openBlobStore } from '../blobs/index.js';
import type { Config } from '../config/config.js';
import { StoreError } from '../store/errors.js';
import { openStore, type Store } from '../store/store.js';

function readBlobStore(config: Config['blobs']): BlobStore {
  if (!fs.existsSync(config.root)) throw new StoreError(`no blob folder at ${config.root}`, 'not_a_database');
  return new FsBlobStore(config.root);
}

/**
 * The I/O athar runs against, chosen once from the validated config: the composition root that the CLI and
 * the server share. Services receive what they need from it; nothing reaches for globals.
 */
export interface AppContext {
  readonly config: Config;
  readonly store: Store;
  readonly blobs: BlobStore;
  /** Milliseconds since the epoch; replaceable in tests. */
  readonly clock: () => number;
  close(): Promise<void>;
}

export async function openContext(
  config: Config,
  options: { migrate?: boolean; readOnly?: boolean } = {},
): Promise<AppContext> {
  const store = await openStore(config.database, options);
  try {
    // Read-only (athar verify): the blob folders are read as they are, nothing made.
    const blobs = options.readOnly ? readBlobStore(config.blobs) : await openBlobStore(config.blobs);
    return {
      config,
      store,
      blobs,
      clock: Date.now,
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
