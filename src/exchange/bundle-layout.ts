import { formatManifest, type ManifestLine } from './bagit.js';

/**
 * A court bundle's layout inside the bag's `data/` folder, and the shapes of its JSON files. One place, so the
 * builder (src/services/exchange/bundle-build.ts) and the offline verifier (bundle-check.ts) cannot disagree.
 *
 * Files that hold database rows name them by table: a top-level member called `evidence_items`,
 * `custody_events`, `records`, `record_links`, `decisions` or `identifications` is a list of rows exactly as
 * stored, so anyone can recompute the row digests (docs/ledger.md) that the log's entries vouch for.
 */

export const bundleFormat = 'athar-court-bundle';
export const bundleFormatVersion = 1;

export const bundlePaths = {
  /** What the bag is: scope, who asked, who approved, the items and which are graphic. */
  bundle: 'bundle.json',
  /** One SHA-256 a line: the originals marked graphic (the default until someone says otherwise). */
  graphic: 'graphic.txt',
  original: (sha256: string) => `originals/${sha256}`,
  item: (sha256: string) => `items/${sha256}.json`,
  custody: (sha256: string) => `custody/${sha256}.json`,
  person: (id: string) => `registry/person-${id}.json`,
  /** Records the items name (annotations, identifications) outside a person scope. */
  records: 'registry/records.json',
  /** One RFC 9162 inclusion proof a line, each against the checkpoint below. */
  proofs: 'log/inclusion-proofs.jsonl',
  checkpoint: 'log/checkpoint.txt',
  verifierKey: 'log/verifier-key.txt',
  /**
   * data/export/: this bag's own record, written after its content was digested. The custody events (kind
   * exported) that logged it, their proofs against the checkpoint signed after them, that checkpoint, and a
   * consistency proof from the content's checkpoint to it.
   */
  exportEvents: 'export/export-events.json',
  exportProofs: 'export/export-proofs.jsonl',
  latestCheckpoint: 'export/latest-checkpoint.txt',
  consistency: 'export/consistency-proof.json',
} as const;

/** Payload paths (under data/) written after the content digest was taken: the export's own record. */
export const exportPrefix = 'export/';

export type BundleScope =
  | { kind: 'person'; personId: string }
  | { kind: 'evidence'; evidenceIds: string[] }
  | { kind: 'ingest_run'; ingestRunId: string };

export interface BundleItemSummary {
  id: string;
  sha256: string;
  mediaType: string;
  sizeBytes: number;
  graphic: boolean;
  originalName: string | null;
}

/** data/bundle.json. */
export interface BundleDescription {
  format: typeof bundleFormat;
  version: typeof bundleFormatVersion;
  /** The bag's id (UUIDv7), also External-Identifier in bag-info.txt and in the export custody events. */
  id: string;
  createdAt: string;
  atharVersion: string;
  sourceOrganization: string;
  scope: BundleScope;
  purpose: string;
  requester: string;
  approver: string | null;
  reason: string | null;
  items: BundleItemSummary[];
  /** Records of family reports left out because their consent does not cover the purpose (count only). */
  withheldRecords: number;
  /** Covered rows the log holds no entry for (made before the log existed); listed, not proven. */
  unlogged: { table: string; id: string }[];
  /**
   * The proofs' checkpoint. The latest checkpoint is not named here: the content is fixed (and digested) before
   * the export is logged and signed over; data/log/latest-checkpoint.txt holds it.
   */
  log: { origin: string; checkpointSize: number; entries: number };
}

/** One line of log/inclusion-proofs.jsonl: the shape `athar ledger prove` prints (hashes in base64). */
export interface BundleProof {
  index: number;
  size: number;
  /** The entry's bytes as logged (canonical JSON). */
  entry: string;
  leafHash: string;
  proof: string[];
  root: string;
}

/** log/consistency-proof.json. */
export interface BundleConsistency {
  from: number;
  to: number;
  fromRoot: string;
  toRoot: string;
  proof: string[];
}

/** What an export custody event's details say: the bag's content, fixed before the event was logged. */
export interface ExportDetails {
  bundle: string;
  /** SHA-256 (hex) of the payload manifest's lines without the data/log/export-* files (contentDigest). */
  content_sha256: string;
  payload_files: number;
  payload_bytes: number;
  scope: BundleScope;
  purpose: string;
  requester: string;
  approver: string | null;
}

/**
 * The digest that binds a bag's content to the log: SHA-256 of the payload manifest's own lines for every
 * payload file but the export record, in manifest order. The same as
 * `grep -v '  data/export/' manifest-sha256.txt | sha256sum`.
 */
export function contentDigest(payload: readonly ManifestLine[], sha256: (text: string) => string): string {
  const content = payload.filter((l) => !l.path.startsWith(`data/${exportPrefix}`));
  return sha256(formatManifest(content));
}

export const coveredTableNames = [
  'custody_events',
  'evidence_items',
  'records',
  'record_links',
  'decisions',
  'identifications',
] as const;
