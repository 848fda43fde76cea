import type { Visibility } from '../../access/caller.js';
import { metadataSummary } from '../../evidence/provenance.js';
import type { EvidenceBodyLabels } from '../../services/evidence/body-labels.js';
import type { EvidenceView } from '../../services/evidence/evidence-access.js';
import type { Annotation } from '../../store/repositories/annotations.js';
import type { EvidenceItem } from '../../store/repositories/evidence.js';
import type { EvidenceListRow } from '../../store/repositories/evidence-catalogue.js';
import type { IngestRun } from '../../store/repositories/ingest-runs.js';

export function presentEvidenceRow(row: EvidenceListRow) {
  return {
    id: row.id,
    sha256: row.sha256,
    sizeBytes: row.sizeBytes,
    mediaType: row.mediaType,
    width: row.width,
    height: row.height,
    originalName: row.originalName,
    graphic: row.graphic,
    decodeStatus: row.decodeStatus,
    sourceId: row.sourceId,
    ingestRunId: row.ingestRunId,
    createdAt: row.createdAt,
    annotations: row.annotations,
    groupId: row.groupId,
    groupSize: row.groupSize,
  };
}

export function presentAnnotation(a: Annotation) {
  return {
    id: a.id,
    kind: a.kind,
    value: a.value,
    readFrom: a.readFrom,
    recordId: a.recordId,
    createdAt: a.createdAt,
    createdBy: a.createdBy,
  };
}

export function presentBodyLabels(entry: EvidenceBodyLabels) {
  const { body } = entry;
  return {
    body: {
      id: body.id,
      collection: body.collection,
      branch: body.branch,
      detaineeNumber: body.detaineeNumber,
      examinationNumber: body.examinationNumber,
    },
    labels: entry.labels.map((l) => ({
      id: l.id,
      part: l.part,
      value: l.value,
      readFrom: l.readFrom,
      createdAt: l.createdAt,
      createdBy: l.createdBy,
    })),
  };
}

function presentNeighbour(item: EvidenceItem, distance: number | null) {
  return {
    id: item.id,
    sha256: item.sha256,
    mediaType: item.mediaType,
    width: item.width,
    height: item.height,
    originalName: item.originalName,
    graphic: item.graphic,
    distance,
  };
}

/** The evidence page: metadata, what people read on it, custody, its place in the log and its look-alikes. */
export function presentEvidence(view: EvidenceView, visibility: Pick<Visibility, 'provenance'>) {
  const { item } = view;
  // Without evidence:provenance: a summary of the metadata, custody without its details or reasons, no paths.
  const provenance = visibility.provenance;
  return {
    id: item.id,
    sha256: item.sha256,
    sizeBytes: item.sizeBytes,
    mediaType: item.mediaType,
    width: item.width,
    height: item.height,
    originalName: item.originalName,
    metadata: provenance ? item.metadata : metadataSummary(item.metadata),
    provenance,
    graphic: item.graphic,
    decodeStatus: item.decodeStatus,
    decodeError: item.decodeError,
    pdq: item.pdq,
    pdqQuality: item.pdqQuality,
    sourceId: item.sourceId,
    ingestRunId: item.ingestRunId,
    createdAt: item.createdAt,
    createdBy: item.createdBy,
    hasThumbnail: item.thumbnailSha256 !== null,
    annotations: view.annotations.map(presentAnnotation),
    bodyLabels: view.bodyLabels.map(presentBodyLabels),
    custody: view.custody.map((c) => ({
      id: c.id,
      kind: c.kind,
      actor: c.actor,
      at: c.at,
      reason: provenance ? c.reason : null,
      details: provenance ? c.details : null,
      ledgerIndex: c.ledgerIndex,
      included: c.included,
    })),
    log: view.log,
    locations: provenance
      ? view.locations.map((l) => ({ path: l.path, foundAt: l.foundAt, ingestRunId: l.ingestRunId }))
      : view.locations.map((l) => ({ path: null, foundAt: l.foundAt, ingestRunId: l.ingestRunId })),
    nearDuplicates: view.nearDuplicates.map((n) => presentNeighbour(n.item, n.distance)),
  };
}

/** An ingest run as a live page polls it: done so far, and the total once the run has counted it. */
export function presentIngestRun(run: IngestRun, found: number, visibility: Pick<Visibility, 'provenance'>) {
  const provenance = visibility.provenance;
  const seen = run.counts && typeof run.counts.seen === 'number' ? run.counts.seen : null;
  return {
    id: run.id,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    actor: run.actor,
    custodian: provenance ? run.custodian : null,
    sourceId: run.sourceId,
    note: provenance ? run.note : null,
    roots: provenance ? run.roots.map((r) => r.path) : [],
    atharVersion: run.atharVersion,
    done: run.status === 'running' ? found : (seen ?? found),
    total: seen,
    counts: run.counts,
  };
}
