import { createHash } from 'node:crypto';
import { type BagReader, readText } from './bag-io.js';
import {
  BagFormatError,
  type BagInfoElement,
  bagInfoFile,
  bagInfoValue,
  declarationFile,
  type ManifestLine,
  parseBagInfo,
  parseDeclaration,
  parseManifest,
  parseOxum,
  payloadDir,
  payloadManifest,
  tagManifest,
} from './bagit.js';

/**
 * Validates a BagIt bag (RFC 8493 §3): complete (the declaration, every manifest entry present, every payload file
 * listed) and valid (every checksum right, Payload-Oxum right). Stricter than the RFC in one way, on purpose: a
 * tag file that the tag manifest does not list is a fault, because a court bundle's tag manifest lists them all,
 * so an extra one was put there afterwards. Faults are listed in the order found; the first is the headline.
 */

export const bagFaultCodes = [
  'incomplete',
  'declaration_malformed',
  'manifest_missing',
  'manifest_malformed',
  'bag_info_malformed',
  'file_missing',
  'file_added',
  'checksum_mismatch',
  'oxum_mismatch',
] as const;
export type BagFaultCode = (typeof bagFaultCodes)[number];

export interface BagFault {
  code: BagFaultCode;
  /** One line: what is wrong and where. */
  message: string;
  path?: string;
  expected?: string;
  found?: string;
}

export interface BagCheck {
  ok: boolean;
  faults: BagFault[];
  info: BagInfoElement[];
  payload: ManifestLine[];
  tags: ManifestLine[];
  files: string[];
  bytes: number;
}

export interface BagCheckOptions {
  onProgress?: (path: string, bytes: number) => void;
}

export async function sha256Of(stream: AsyncIterable<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}

export async function checkBag(reader: BagReader, options: BagCheckOptions = {}): Promise<BagCheck> {
  const faults: BagFault[] = [];
  const result: BagCheck = { ok: false, faults, info: [], payload: [], tags: [], files: [], bytes: 0 };
  const files = (await reader.list()).sort();
  result.files = files;
  const present = new Set(files);

  const declaration = await readText(reader, declarationFile, present);
  if (declaration === undefined) {
    faults.push({
      code: 'incomplete',
      message: `${declarationFile} is missing: the bag is not complete (its build did not finish, or the file was removed)`,
      path: declarationFile,
    });
  } else {
    try {
      parseDeclaration(declaration);
    } catch (error) {
      faults.push({
        code: 'declaration_malformed',
        message: (error as Error).message,
        path: declarationFile,
      });
    }
  }

  const manifests: Record<string, ManifestLine[] | undefined> = {};
  for (const name of [tagManifest, payloadManifest]) {
    const text = await readText(reader, name, present);
    if (text === undefined) {
      faults.push({ code: 'manifest_missing', message: `${name} is missing`, path: name });
      continue;
    }
    try {
      manifests[name] = parseManifest(text, name);
    } catch (error) {
      faults.push({ code: 'manifest_malformed', message: (error as Error).message, path: name });
    }
  }
  const tags = manifests[tagManifest] ?? [];
  const payload = manifests[payloadManifest] ?? [];
  result.tags = tags;
  result.payload = payload;

  const infoText = await readText(reader, bagInfoFile, present);
  if (infoText !== undefined) {
    try {
      result.info = parseBagInfo(infoText);
    } catch (error) {
      faults.push({ code: 'bag_info_malformed', message: (error as Error).message, path: bagInfoFile });
    }
  }

  // Completeness: listed files present; files present listed (payload always; tag files too, see above).
  const listedTags = new Set(tags.map((l) => l.path));
  const listedPayload = new Set(payload.map((l) => l.path));
  for (const line of [...tags, ...payload]) {
    if (!present.has(line.path)) {
      faults.push({
        code: 'file_missing',
        message: `${line.path} is listed in the manifest but missing`,
        path: line.path,
      });
    }
  }
  for (const file of files) {
    if (file.startsWith(`${payloadDir}/`)) {
      if (manifests[payloadManifest] && !listedPayload.has(file)) {
        faults.push({
          code: 'file_added',
          message: `${file} is in the payload but not in ${payloadManifest}`,
          path: file,
        });
      }
    } else if (file !== tagManifest && manifests[tagManifest] && !listedTags.has(file)) {
      faults.push({
        code: 'file_added',
        message: `${file} is in the bag but not in ${tagManifest}`,
        path: file,
      });
    }
  }

  // Validity: every checksum, tag files first (they are small), then the payload.
  let payloadBytes = 0;
  for (const line of [...tags, ...payload]) {
    if (!present.has(line.path)) continue;
    const { sha256, size } = await sha256Of(await reader.open(line.path));
    if (line.path.startsWith(`${payloadDir}/`)) payloadBytes += size;
    result.bytes += size;
    options.onProgress?.(line.path, size);
    if (sha256 !== line.sha256) {
      faults.push({
        code: 'checksum_mismatch',
        message: `${line.path} hashes to ${sha256}, but the manifest says ${line.sha256}: its bytes were altered`,
        path: line.path,
        expected: line.sha256,
        found: sha256,
      });
    }
  }
  const oxumText = bagInfoValue(result.info, 'Payload-Oxum');
  if (oxumText !== undefined && manifests[payloadManifest]) {
    const oxum = parseOxum(oxumText);
    const count = files.filter((f) => f.startsWith(`${payloadDir}/`)).length;
    if (!oxum || oxum.bytes !== payloadBytes || oxum.files !== count) {
      faults.push({
        code: 'oxum_mismatch',
        message: `Payload-Oxum says ${oxumText}, the payload is ${payloadBytes}.${count}`,
        path: bagInfoFile,
        expected: oxumText,
        found: `${payloadBytes}.${count}`,
      });
    }
  }
  result.ok = faults.length === 0;
  return result;
}

export { BagFormatError };
