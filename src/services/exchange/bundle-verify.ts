import { type BagFault, checkBag } from '../../exchange/bag-check.js';
import { readText } from '../../exchange/bag-io.js';
import { payloadDir } from '../../exchange/bagit.js';
import { type BundleFault, checkBundle } from '../../exchange/bundle-check.js';
import type { Ed25519Key } from '../../ledger/note.js';
import { openBagReader } from './bag-files.js';

/**
 * `athar bundle verify`: a court bundle checked with nothing but its own files — no database, no network. The
 * bag first (manifests, every payload file re-hashed), then the log (signatures, proofs, row digests, the
 * content digest the export logged). This module must never import the store.
 */

export type VerifyFault = (BagFault | BundleFault) & { code: string };

export interface BundleVerifyReport {
  ok: boolean;
  location: string;
  bundle: string | null;
  verifierKey: string | null;
  files: number;
  bytes: number;
  originals: number;
  entries: number;
  rows: number;
  checkpointSize: number | null;
  latestSize: number | null;
  faults: VerifyFault[];
  notes: string[];
  ms: number;
}

export async function verifyBundle(
  source: string,
  options: { trustedKey?: Ed25519Key; onProgress?: (bytes: number) => void } = {},
): Promise<BundleVerifyReport> {
  const start = performance.now();
  const reader = await openBagReader(source);
  try {
    let bytes = 0;
    const bag = await checkBag(reader, {
      onProgress: (_path, size) => {
        bytes += size;
        options.onProgress?.(bytes);
      },
    });
    const present = new Set(bag.files);
    const payloadPaths = bag.files
      .filter((f) => f.startsWith(`${payloadDir}/`))
      .map((f) => f.slice(payloadDir.length + 1));
    const log = await checkBundle(
      {
        text: (path) => readText(reader, `${payloadDir}/${path}`, present),
        paths: payloadPaths,
        manifest: bag.payload,
      },
      options.trustedKey ? { trustedKey: options.trustedKey } : {},
    );
    const faults: VerifyFault[] = [...bag.faults, ...log.faults];
    return {
      ok: faults.length === 0,
      location: reader.location,
      bundle: log.description?.id ?? null,
      verifierKey: log.verifierKey ?? null,
      files: bag.files.length,
      bytes: bag.bytes,
      originals: log.originals,
      entries: log.entries,
      rows: log.rows,
      checkpointSize: log.checkpointSize ?? null,
      latestSize: log.latestSize ?? null,
      faults,
      notes: log.notes,
      ms: Math.round(performance.now() - start),
    };
  } finally {
    await reader.close();
  }
}
