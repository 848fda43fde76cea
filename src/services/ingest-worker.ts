/**
 * An ingest worker thread: describes files held in memory (type, metadata, the one decode, PDQ, derived views
 * staged in the blob store) for the main thread, which keeps the walk, the originals, the rows and the commits.
 * Each worker takes several files at once; sharp's work runs on libuv's pool, shared by all threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { StagedBlob } from '../blobs/blob-store.js';
import { FsBlobStore } from '../blobs/fs-blob-store.js';
import { SharpImageDecoder } from '../evidence/sharp-image-decoder.js';
import { describeFile, headBytes } from './ingest-describe.js';
import type { DescribeJob, DescribeReply } from './ingest-pool.js';

const store = new FsBlobStore((workerData as { blobRoot: string }).blobRoot);
const decoder = new SharpImageDecoder();
const port = parentPort;
if (!port) throw new Error('ingest-worker runs as a worker thread');

port.on('message', (job: DescribeJob) => {
  void run(job).then((reply) => port.postMessage(reply));
});

async function run(job: DescribeJob): Promise<DescribeReply> {
  const staged: StagedBlob[] = [];
  try {
    const content = Buffer.from(job.content, 0, job.length);
    const described = await describeFile(
      decoder,
      store,
      {
        content,
        head: content.subarray(0, headBytes),
        name: job.name,
        open: () => {
          throw new Error('the whole file is in memory');
        },
        maxPixels: job.maxPixels,
      },
      staged,
    );
    return { id: job.id, described, views: staged.map((b) => store.handOver(b)) };
  } catch (error) {
    await store.discard(staged).catch(() => {});
    const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
    return { id: job.id, error: { name, message, stack } };
  }
}
