import { parseCheckpoint } from '../ledger/checkpoint.js';
import { type CoveredTable, coveredTables, type LogEntry, parseEntry, rowDigest } from '../ledger/entries.js';
import { leafHash, sha256Hex, toBase64 } from '../ledger/hash.js';
import {
  type Ed25519Key,
  ed25519Verifier,
  formatVerifierKey,
  openNote,
  parseVerifierKey,
} from '../ledger/note.js';
import { verifyConsistency, verifyInclusion } from '../ledger/tree.js';
import type { ManifestLine } from './bagit.js';
import {
  type BundleConsistency,
  type BundleDescription,
  type BundleProof,
  bundlePaths,
  contentDigest,
  type ExportDetails,
} from './bundle-layout.js';

/**
 * The court bundle's own checks, after the bag's (bag-check.ts): the signed checkpoints against the key, every
 * inclusion proof, the consistency proof, every covered row against the entry that vouches for it, every
 * original against its ingest entry, and the content digest against the export custody event. Nothing here
 * reads a database or the network: the bag's files are handed in as text.
 */

export const bundleFaultCodes = [
  'not_a_bundle',
  'key_malformed',
  'key_mismatch',
  'checkpoint_malformed',
  'checkpoint_signature',
  'proof_malformed',
  'proof_checkpoint',
  'entry_malformed',
  'leaf_mismatch',
  'inclusion_failed',
  'consistency_failed',
  'row_unproven',
  'row_digest',
  'original_unlogged',
  'item_mismatch',
  'export_unproven',
  'content_digest',
] as const;
export type BundleFaultCode = (typeof bundleFaultCodes)[number];

export interface BundleFault {
  code: BundleFaultCode;
  message: string;
  path?: string;
  entry?: number;
  expected?: string;
  found?: string;
}

export interface BundleFiles {
  /** Payload files by path under data/ (undefined when absent). */
  text(path: string): Promise<string | undefined>;
  /** Every payload path under data/ (without the `data/` prefix). */
  paths: readonly string[];
  /** The payload manifest's lines (paths with `data/`). */
  manifest: readonly ManifestLine[];
}

export interface BundleCheck {
  faults: BundleFault[];
  notes: string[];
  description?: BundleDescription;
  verifierKey?: string;
  checkpointSize?: number;
  latestSize?: number;
  entries: number;
  rows: number;
  originals: number;
}

interface Signed {
  size: number;
  root: Uint8Array;
}

function jsonLines<T>(text: string | undefined): T[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

const b64 = (text: unknown): Uint8Array | undefined =>
  typeof text === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : undefined;

export async function checkBundle(
  files: BundleFiles,
  options: { trustedKey?: Ed25519Key } = {},
): Promise<BundleCheck> {
  const faults: BundleFault[] = [];
  const notes: string[] = [];
  const out: BundleCheck = { faults, notes, entries: 0, rows: 0, originals: 0 };
  const fault = (f: BundleFault) => faults.push(f);

  const descriptionText = await files.text(bundlePaths.bundle);
  try {
    out.description = descriptionText ? (JSON.parse(descriptionText) as BundleDescription) : undefined;
  } catch {
    out.description = undefined;
  }
  if (out.description?.format !== 'athar-court-bundle') {
    fault({
      code: 'not_a_bundle',
      message: `data/${bundlePaths.bundle} is missing or is not an athar court bundle`,
      path: `data/${bundlePaths.bundle}`,
    });
    return out;
  }

  // The key: the bag's own, checked against the one the reader was given.
  const keyText = (await files.text(bundlePaths.verifierKey))?.trim();
  const bagKey = keyText ? parseVerifierKey(keyText) : undefined;
  if (!bagKey)
    fault({
      code: 'key_malformed',
      message: `data/${bundlePaths.verifierKey} is missing or not a verifier key`,
      path: `data/${bundlePaths.verifierKey}`,
    });
  let key = bagKey;
  if (options.trustedKey) {
    const given = formatVerifierKey(options.trustedKey);
    if (bagKey && formatVerifierKey(bagKey) !== given) {
      fault({
        code: 'key_mismatch',
        message: `the bag's verifier key ${formatVerifierKey(bagKey)} is not the key given (${given})`,
        path: `data/${bundlePaths.verifierKey}`,
        expected: given,
        found: formatVerifierKey(bagKey),
      });
    }
    key = options.trustedKey;
  } else if (bagKey) {
    notes.push(
      'checked against the verifier key inside the bag; give --key with the key athar published to check it is theirs',
    );
  }
  out.verifierKey = key ? formatVerifierKey(key) : undefined;
  if (!key) return out;
  const verifier = ed25519Verifier(key);

  const openCheckpoint = async (path: string): Promise<Signed | undefined> => {
    const note = await files.text(path);
    if (note === undefined) {
      fault({ code: 'checkpoint_malformed', message: `data/${path} is missing`, path: `data/${path}` });
      return undefined;
    }
    const opened = openNote(note, [verifier]);
    if (!opened.ok) {
      fault({
        code: opened.reason === 'malformed' ? 'checkpoint_malformed' : 'checkpoint_signature',
        message: `data/${path} is not signed by ${formatVerifierKey(key)}: ${opened.detail}`,
        path: `data/${path}`,
      });
      return undefined;
    }
    const parsed = parseCheckpoint(opened.text);
    if (!parsed.ok || parsed.checkpoint.origin !== key.name) {
      fault({
        code: 'checkpoint_malformed',
        message: `data/${path}: ${parsed.ok ? `origin ${parsed.checkpoint.origin} is not ${key.name}` : parsed.detail}`,
        path: `data/${path}`,
      });
      return undefined;
    }
    return { size: parsed.checkpoint.size, root: parsed.checkpoint.root };
  };
  const checkpoint = await openCheckpoint(bundlePaths.checkpoint);
  const latest = await openCheckpoint(bundlePaths.latestCheckpoint);
  out.checkpointSize = checkpoint?.size;
  out.latestSize = latest?.size;

  // Inclusion proofs: each entry's leaf, and its path to the signed root.
  const proven = new Map<number, LogEntry>();
  const checkProofs = async (path: string, against: Signed | undefined): Promise<LogEntry[]> => {
    let lines: BundleProof[] | undefined;
    try {
      lines = jsonLines<BundleProof>(await files.text(path));
    } catch (error) {
      fault({
        code: 'proof_malformed',
        message: `data/${path}: ${(error as Error).message}`,
        path: `data/${path}`,
      });
      return [];
    }
    if (!lines) {
      fault({ code: 'proof_malformed', message: `data/${path} is missing`, path: `data/${path}` });
      return [];
    }
    const entries: LogEntry[] = [];
    for (const [i, p] of lines.entries()) {
      const where = `data/${path} line ${i + 1}`;
      const hashes = Array.isArray(p.proof) ? p.proof.map(b64) : undefined;
      const claimedLeaf = b64(p.leafHash);
      if (
        typeof p.entry !== 'string' ||
        !Number.isSafeInteger(p.index) ||
        !hashes ||
        hashes.some((h) => !h) ||
        !claimedLeaf
      ) {
        fault({
          code: 'proof_malformed',
          message: `${where}: not an inclusion proof {index, size, entry, leafHash, proof, root}`,
          path: `data/${path}`,
        });
        continue;
      }
      if (!against) continue;
      if (p.size !== against.size || p.root !== toBase64(against.root)) {
        fault({
          code: 'proof_checkpoint',
          message: `${where}: entry ${p.index} is proven against size ${p.size}, not the signed checkpoint's ${against.size}`,
          path: `data/${path}`,
          entry: p.index,
        });
        continue;
      }
      const leaf = leafHash(Buffer.from(p.entry, 'utf8'));
      if (toBase64(leaf) !== p.leafHash) {
        fault({
          code: 'leaf_mismatch',
          message: `${where}: entry ${p.index}'s bytes hash to leaf ${toBase64(leaf)}, not ${p.leafHash}: the entry was altered`,
          path: `data/${path}`,
          entry: p.index,
        });
        continue;
      }
      if (!verifyInclusion(p.index, against.size, leaf, hashes as Uint8Array[], against.root)) {
        fault({
          code: 'inclusion_failed',
          message: `${where}: the proof does not lead from entry ${p.index} to the root of checkpoint ${against.size}: it is a proof for another entry, or the entry is not in the log`,
          path: `data/${path}`,
          entry: p.index,
        });
        continue;
      }
      const parsed = parseEntry(p.entry);
      if (!parsed.ok) {
        fault({
          code: 'entry_malformed',
          message: `${where}: entry ${p.index}: ${parsed.detail}`,
          path: `data/${path}`,
          entry: p.index,
        });
        continue;
      }
      proven.set(p.index, parsed.entry);
      entries.push(parsed.entry);
    }
    return entries;
  };
  await checkProofs(bundlePaths.proofs, checkpoint);
  const contentEntries = new Map(proven);
  const exportEntries = await checkProofs(bundlePaths.exportProofs, latest);
  out.entries = proven.size;

  // The log kept growing from the proofs' checkpoint to the latest, and never rewrote it.
  const consistencyText = await files.text(bundlePaths.consistency);
  if (checkpoint && latest) {
    let c: BundleConsistency | undefined;
    try {
      c = consistencyText ? (JSON.parse(consistencyText) as BundleConsistency) : undefined;
    } catch {
      c = undefined;
    }
    const hashes = c && Array.isArray(c.proof) ? c.proof.map(b64) : undefined;
    if (!c || !hashes || hashes.some((h) => !h)) {
      fault({
        code: 'proof_malformed',
        message: `data/${bundlePaths.consistency} is missing or malformed`,
        path: `data/${bundlePaths.consistency}`,
      });
    } else if (
      c.from !== checkpoint.size ||
      c.to !== latest.size ||
      !verifyConsistency(checkpoint.size, latest.size, checkpoint.root, latest.root, hashes as Uint8Array[])
    ) {
      fault({
        code: 'consistency_failed',
        message: `data/${bundlePaths.consistency} does not prove checkpoint ${latest.size} consistent with checkpoint ${checkpoint.size}`,
        path: `data/${bundlePaths.consistency}`,
      });
    }
  }

  // Rows: the latest proven entry that names each covered row vouches for its digest.
  const vouch = new Map<string, { idx: number; sha256: string }>();
  for (const [idx, entry] of [...proven.entries()].sort((a, b) => a[0] - b[0])) {
    for (const r of entry.rows) vouch.set(`${r.table}\u0000${r.id}`, { idx, sha256: r.sha256 });
  }
  const unlogged = new Set((out.description.unlogged ?? []).map((u) => `${u.table}\u0000${u.id}`));
  const tables = new Set<string>(coveredTables);
  const rowFiles = files.paths.filter(
    (p) =>
      p.endsWith('.json') &&
      (p.startsWith('items/') ||
        p.startsWith('custody/') ||
        p.startsWith('registry/') ||
        p === bundlePaths.exportEvents),
  );
  let exportRows: Record<string, unknown>[] = [];
  for (const path of rowFiles) {
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse((await files.text(path)) ?? 'null') as Record<string, unknown>;
    } catch (error) {
      fault({
        code: 'row_digest',
        message: `data/${path} is not JSON: ${(error as Error).message}`,
        path: `data/${path}`,
      });
      continue;
    }
    if (!doc || typeof doc !== 'object') continue;
    for (const [table, rows] of Object.entries(doc)) {
      if (!tables.has(table) || !Array.isArray(rows)) continue;
      if (path === bundlePaths.exportEvents && table === 'custody_events')
        exportRows = rows as Record<string, unknown>[];
      for (const row of rows as Record<string, unknown>[]) {
        out.rows++;
        const id = String(row?.id);
        const key = `${table}\u0000${id}`;
        const v = vouch.get(key);
        let found: string;
        try {
          found = rowDigest(table as CoveredTable, row);
        } catch (error) {
          fault({
            code: 'row_digest',
            message: `data/${path}: ${table}/${id}: ${(error as Error).message}`,
            path: `data/${path}`,
          });
          continue;
        }
        if (!v) {
          if (!unlogged.has(key)) {
            fault({
              code: 'row_unproven',
              message: `data/${path}: ${table}/${id} has no proven log entry in the bag`,
              path: `data/${path}`,
            });
          }
        } else if (v.sha256 !== found) {
          fault({
            code: 'row_digest',
            message: `data/${path}: ${table}/${id} digests to ${found}, but entry ${v.idx} vouches for ${v.sha256}: the row was edited`,
            path: `data/${path}`,
            entry: v.idx,
            expected: v.sha256,
            found,
          });
        }
      }
    }
  }

  // Originals: named by their hash, each taken in by a proven ingest entry, each with its metadata file.
  const ingested = new Set<string>();
  for (const entry of contentEntries.values()) {
    if (entry.kind === 'custody.ingested' && entry.subject.type === 'evidence_item')
      ingested.add(entry.subject.sha256);
  }
  const hashes = new Map(files.manifest.map((l) => [l.path, l.sha256]));
  for (const path of files.paths.filter((p) => p.startsWith('originals/'))) {
    out.originals++;
    const named = path.slice('originals/'.length);
    const actual = hashes.get(`data/${path}`);
    if (actual !== named) {
      fault({
        code: 'item_mismatch',
        message: `data/${path}: the file is named ${named} but the manifest gives ${actual}`,
        path: `data/${path}`,
      });
    }
    if (!ingested.has(named)) {
      fault({
        code: 'original_unlogged',
        message: `data/${path}: no proven custody.ingested entry names SHA-256 ${named}`,
        path: `data/${path}`,
      });
    }
    if (!files.paths.includes(bundlePaths.item(named))) {
      fault({
        code: 'item_mismatch',
        message: `data/${path} has no metadata file data/${bundlePaths.item(named)}`,
        path: `data/${path}`,
      });
    }
  }

  // The export: events proven against the latest checkpoint, whose details fix the bag's content digest.
  const digest = contentDigest(files.manifest, sha256Hex);
  const exported = exportRows.filter((r) => r.kind === 'exported');
  const provenExport = new Set(
    exportEntries.flatMap((e) => e.rows.filter((r) => r.table === 'custody_events').map((r) => r.id)),
  );
  if (exported.length === 0) {
    fault({
      code: 'export_unproven',
      message: `data/${bundlePaths.exportEvents} holds no exported custody event`,
      path: `data/${bundlePaths.exportEvents}`,
    });
  }
  for (const row of exported) {
    if (!provenExport.has(String(row.id))) {
      fault({
        code: 'export_unproven',
        message: `export event ${String(row.id)} is not proven against the latest checkpoint`,
        path: `data/${bundlePaths.exportEvents}`,
      });
      continue;
    }
    let details: Partial<ExportDetails> = {};
    try {
      details = JSON.parse(String(row.details)) as ExportDetails;
    } catch {
      details = {};
    }
    if (details.content_sha256 !== digest || details.bundle !== out.description.id) {
      fault({
        code: 'content_digest',
        message: `the bag's content digests to ${digest}, but export event ${String(row.id)} logged ${details.content_sha256} for bundle ${details.bundle}: files were changed, added or removed after the bag was made`,
        path: 'manifest-sha256.txt',
        expected: details.content_sha256,
        found: digest,
      });
      break;
    }
  }
  return out;
}
