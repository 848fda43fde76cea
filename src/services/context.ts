import type { BlobStore } from '../blobs/blob-store.js';
import { openBlobStore } from '../blobs/index.js';
import type { Config } from '../config/config.js';
import { openStore, type Store } from '../store/store.js';

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

export async function openContext(config: Config, options: { migrate?: boolean } = {}): Promise<AppContext> {
  const store = await openStore(config.database, options);
  try {
    const blobs = await openBlobStore(config.blobs);
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
