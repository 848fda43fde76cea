import type { RawImage } from './image-decoder.js';
import { type PdqResult, pdqFromPixels } from './pdq.js';

/** Where PDQ hashes are computed: on the calling thread, or in a pool of worker threads (pdq-pool.ts). */
export interface PdqHasher {
  hash(pixels: RawImage): Promise<PdqResult>;
  close(): Promise<void>;
}

/** Hashes on the calling thread. */
export const inlinePdqHasher: PdqHasher = {
  async hash(pixels) {
    return pdqFromPixels(pixels.data, pixels.width, pixels.height, pixels.channels);
  },
  async close() {},
};
