import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsBlobStore } from '../src/blobs/fs-blob-store.js';
import { loadConfig } from '../src/config/config.js';
import type { AppContext } from '../src/services/context.js';
import type { Store } from '../src/store/store.js';

/** An AppContext over a test store and a blob store in a fresh temp folder (removed by `dispose`). */
export async function evidenceContext(store: Store): Promise<AppContext & { dir: string; dispose(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-evidence-'));
  const blobs = new FsBlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  return {
    config: loadConfig({ ATHAR_DATA: path.join(dir, 'data') }, {}),
    store,
    blobs,
    clock: Date.now,
    dir,
    close: async () => {},
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
