/**
 * An ingest worker thread: reads files and stages them in the blob store, then, once the main thread has found
 * their content new, describes them (type, metadata, the one decode, PDQ, derived views staged too). The main
 * thread keeps the walk, the dedupe, the rows and the commits. Each worker takes several files at once; sharp's
 * work runs on libuv's pool, shared by all threads.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { StagedBlob } from '../blobs/blob-store.js';
import { FsBlobStore } from '../blobs/fs-blob-store.js';
import { SharpImageDecoder } from '../evidence/sharp-image-decoder.js';
import { describeFile, headBytes } from './ingest-describe.js';
import type { PoolJob, PoolReply } from './ingest-pool.js';
import { describeFsError } from './ingest-walk.js';

const store = new FsBlobStore((workerData as { blobRoot: string }).blobRoot);
const decoder = new SharpImageDecoder();
/** Contents read and staged, waiting for the main thread to ask for a description or to drop them. */
const held = new Map<number, Buffer>();
const openFlags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
const port = parentPort;
if (!port) throw new Error('ingest-worker runs as a worker thread');

port.postMessage({ ready: true });
port.on('message', (job: PoolJob) => {
  if (job.op === 'drop') {
    held.delete(job.id);
    return;
  }
  const work = job.op === 'read' ? read(job.id, Buffer.from(job.path), job.inMemoryLimit) : describe(job);
  void work
    .catch((error: unknown) => {
      const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
      return { id: job.id, error: { name, message, stack } } satisfies PoolReply;
    })
    .then((reply) => port.postMessage(reply));
});

/**
 * Reads the whole file (opened without following a link, and never blocking on a pipe swapped in after the
 * walk) and stages it, or says why not; a file over the memory limit is left to the main thread to stream.
 * Reads are synchronous: each worker is one of several readers, and a trip through libuv's pool would queue
 * them behind the decodes.
 */
async function read(id: number, path: Buffer, inMemoryLimit: number): Promise<PoolReply> {
  let fd: number;
  try {
    fd = fs.openSync(path, openFlags);
  } catch (error) {
    return { id, refused: `cannot be opened: ${describeFsError(error)}` };
  }
  let content: Buffer;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { id, refused: 'is no longer a regular file' };
    if (stat.size === 0) return { id, refused: 'empty file (0 bytes)' };
    if (stat.size > inMemoryLimit) return { id, large: true };
    try {
      content = readWhole(fd, stat.size);
    } catch (error) {
      return { id, refused: `cannot be read: ${describeFsError(error)}` };
    }
  } finally {
    fs.closeSync(fd);
  }
  if (content.length === 0) return { id, refused: 'empty file (0 bytes)' };
  const original = await store.stage(content);
  held.set(id, content);
  return { id, original: store.handOver(original) };
}

async function describe(job: Extract<PoolJob, { op: 'describe' }>): Promise<PoolReply> {
  const content = held.get(job.id);
  if (!content) throw new Error(`no file held as ${job.id}`);
  held.delete(job.id);
  const staged: StagedBlob[] = [];
  try {
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
    throw error;
  }
}

/**
 * The whole file in one read when it is as large as `size` said: the buffer has a byte to spare, so a short read
 * means the end was reached, and a file that grew meanwhile is read on.
 */
function readWhole(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafeSlow(size + 1);
  let length = 0;
  for (;;) {
    const want = buffer.length - length;
    const got = fs.readSync(fd, buffer, length, want, null);
    length += got;
    if (got === 0 || got < want) return buffer.subarray(0, length);
    const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
    buffer.copy(larger, 0, 0, length);
    buffer = larger;
  }
}
