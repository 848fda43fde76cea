/**
 * Where a bag is written to and read from, as two small interfaces: a folder or a zip file (the implementations
 * are I/O and live in src/services/exchange/bag-files.ts). The bag logic here only ever sees these.
 */

/** Content handed to a sink: bytes, text (UTF-8) or a stream of chunks (large originals). */
export type BagContent = Uint8Array | string | AsyncIterable<Uint8Array>;

export interface BagSink {
  /** Where the bag is going, for messages. */
  readonly location: string;
  /** Writes one file at a bag-relative path (`data/…`, `manifest-sha256.txt`, …), in the order called. */
  write(path: string, content: AsyncIterable<Uint8Array> | Uint8Array): Promise<void>;
  /** Makes everything written so far durable: called before the declaration that marks the bag complete. */
  flush(): Promise<void>;
  /** Completes the container (a zip's central directory, its final name). Nothing may be written after. */
  close(): Promise<void>;
  /** Gives up: removes what a partial build left where it can, and never leaves a complete-looking bag. */
  abort(): Promise<void>;
}

export interface BagReader {
  readonly location: string;
  /** Every file of the bag (folders left out), as bag-relative paths with `/`. */
  list(): Promise<string[]>;
  /** A file's bytes as a stream; rejects when the file is not there. */
  open(path: string): Promise<AsyncIterable<Uint8Array>>;
  close(): Promise<void>;
}

/** A whole file as text, or undefined when it is not in the bag. */
export async function readText(
  reader: BagReader,
  path: string,
  files?: ReadonlySet<string>,
): Promise<string | undefined> {
  if (files && !files.has(path)) return undefined;
  let stream: AsyncIterable<Uint8Array>;
  try {
    stream = await reader.open(path);
  } catch {
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Bytes or text as one chunk, a stream as it is. */
export function chunksOf(content: BagContent): AsyncIterable<Uint8Array> | Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}
