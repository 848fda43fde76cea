import type { Config } from '../config/config.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

export * from './blob-store.js';
export { FsBlobStore, readAll } from './fs-blob-store.js';

/** The configured blob store, ready to use (folders made). S3 will sit behind the same interface. */
export async function openBlobStore(config: Config['blobs']): Promise<BlobStore> {
  const store = new FsBlobStore(config.root);
  await store.init();
  return store;
}
