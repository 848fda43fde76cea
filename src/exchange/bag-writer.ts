import { createHash } from 'node:crypto';
import { type BagContent, type BagSink, chunksOf } from './bag-io.js';
import {
  type BagInfoElement,
  bagInfoFile,
  bagitDeclaration,
  declarationFile,
  formatBagInfo,
  formatManifest,
  formatOxum,
  humanSize,
  isSafeBagPath,
  type ManifestLine,
  payloadDir,
  payloadManifest,
  tagManifest,
} from './bagit.js';

/** Content whose bytes did not hash to what the caller expected (a blob altered in the vault). */
export class BagContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BagContentError';
  }
}

/**
 * Writes one BagIt 1.0 bag through a sink, hashing every file on its way out (one pass over each original).
 * Order: payload files, then manifest-sha256.txt, bag-info.txt and any other tag files, tagmanifest-sha256.txt,
 * a flush, and bagit.txt last: until the declaration is there the bag is not a bag (RFC 8493 §3 makes it
 * required), so a build that was killed can never pass for complete.
 */
export class BagWriter {
  private readonly payload: ManifestLine[] = [];
  private readonly tags: ManifestLine[] = [];
  private readonly paths = new Set<string>();
  private bytes = 0;
  private finished = false;

  constructor(private readonly sink: BagSink) {}

  /** Adds a payload file at `data/<path>`; with `expectedSha256`, refuses bytes that hash otherwise. */
  async addPayload(
    path: string,
    content: BagContent,
    options: { expectedSha256?: string } = {},
  ): Promise<ManifestLine> {
    const line = await this.put(`${payloadDir}/${path}`, content);
    if (options.expectedSha256 && options.expectedSha256 !== line.sha256) {
      throw new BagContentError(
        `data/${path}: the bytes hash to ${line.sha256}, not ${options.expectedSha256}`,
      );
    }
    this.payload.push(line);
    return line;
  }

  /** The payload written so far, in the order written. */
  payloadLines(): readonly ManifestLine[] {
    return this.payload;
  }

  get payloadBytes(): number {
    return this.bytes;
  }

  private async put(path: string, content: BagContent): Promise<ManifestLine & { size: number }> {
    if (this.finished) throw new Error('the bag is already finished');
    if (!isSafeBagPath(path)) throw new Error(`not a safe bag path: ${JSON.stringify(path)}`);
    if (this.paths.has(path)) throw new Error(`${path} is written twice`);
    this.paths.add(path);
    const hash = createHash('sha256');
    let size = 0;
    const body = chunksOf(content);
    if (body instanceof Uint8Array) {
      hash.update(body);
      size = body.byteLength;
      await this.sink.write(path, body);
    } else {
      async function* hashing(): AsyncIterable<Uint8Array> {
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          hash.update(chunk);
          size += chunk.byteLength;
          yield chunk;
        }
      }
      await this.sink.write(path, hashing());
    }
    if (path.startsWith(`${payloadDir}/`)) this.bytes += size;
    return { sha256: hash.digest('hex'), path, size };
  }

  /**
   * Writes the tag files and the declaration. `info` comes first in bag-info.txt; Payload-Oxum, Bag-Size and
   * Bagging-Date are added unless given. `tagFiles` (a README, …) are listed in the tag manifest like the others.
   */
  async finish(
    info: readonly BagInfoElement[],
    tagFiles: readonly { path: string; content: string }[] = [],
  ): Promise<void> {
    const has = (label: string) => info.some((e) => e.label.toLowerCase() === label.toLowerCase());
    const elements: BagInfoElement[] = [...info];
    if (!has('Bagging-Date'))
      elements.push({ label: 'Bagging-Date', value: new Date().toISOString().slice(0, 10) });
    if (!has('Payload-Oxum'))
      elements.push({ label: 'Payload-Oxum', value: formatOxum(this.bytes, this.payload.length) });
    if (!has('Bag-Size')) elements.push({ label: 'Bag-Size', value: humanSize(this.bytes) });
    this.tags.push(await this.put(payloadManifest, formatManifest(this.payload)));
    this.tags.push(await this.put(bagInfoFile, formatBagInfo(elements)));
    for (const tag of tagFiles) {
      if (tag.path.startsWith(`${payloadDir}/`)) throw new Error(`${tag.path} is payload, not a tag file`);
      this.tags.push(await this.put(tag.path, tag.content));
    }
    // The declaration is listed before it exists: its content is fixed.
    const declaration = createHash('sha256').update(bagitDeclaration).digest('hex');
    await this.put(
      tagManifest,
      formatManifest([...this.tags, { sha256: declaration, path: declarationFile }]),
    );
    await this.sink.flush();
    await this.put(declarationFile, bagitDeclaration);
    this.finished = true;
    await this.sink.close();
  }
}
