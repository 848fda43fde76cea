import { AccountService } from './accounts/accounts.js';
import { Authenticator } from './accounts/authentication.js';
import { AuditService } from './audit/audit.js';
import type { AppContext } from './context.js';
import { EstimateService } from './estimate/registry-estimate.js';
import { BodyLabels } from './evidence/body-labels.js';
import { EvidenceCatalogue } from './evidence/evidence.js';
import { EvidenceAccess } from './evidence/evidence-access.js';
import { RevealGrants } from './evidence/reveal-grants.js';
import { BackupService } from './exchange/backups.js';
import { ExportRequestService } from './exchange/export-requests.js';
import { ImportService } from './imports/import-jobs.js';
import { IngestRunService } from './ingest/ingest-runs.js';
import { UploadService } from './ingest/uploads.js';
import { IntakeService } from './intake/intake.js';
import { LedgerLog } from './ledger/log.js';
import { OcrService } from './ocr/ocr.js';
import { ScannedPages } from './ocr/scanned-pages.js';
import { PlaceService } from './registry/places.js';
import { RecordSearch } from './registry/record-search.js';
import { RegistryService } from './registry/registry.js';
import { SourceService } from './registry/sources.js';
import { StatsService } from './registry/stats.js';
import { UnitService } from './registry/units.js';
import { IdentificationService } from './review/identifications.js';
import { ReviewQueue } from './review/review-queue.js';
import { HealthService } from './system/health.js';
import { TracingService } from './tracing/tracing.js';

/**
 * Every service, built once per context, for the server and the CLI alike: each takes the context and the
 * services it needs, and nothing else builds them.
 */
export interface Services {
  readonly ctx: AppContext;
  readonly audit: AuditService;
  readonly authenticator: Authenticator;
  readonly accounts: AccountService;
  readonly health: HealthService;
  readonly places: PlaceService;
  readonly units: UnitService;
  readonly sources: SourceService;
  readonly stats: StatsService;
  readonly registry: RegistryService;
  readonly search: RecordSearch;
  readonly imports: ImportService;
  readonly intake: IntakeService;
  readonly catalogue: EvidenceCatalogue;
  readonly bodyLabels: BodyLabels;
  readonly evidence: EvidenceAccess;
  readonly ingestRuns: IngestRunService;
  readonly uploads: UploadService;
  readonly review: ReviewQueue;
  readonly identifications: IdentificationService;
  readonly log: LedgerLog;
  readonly tracing: TracingService;
  readonly estimate: EstimateService;
  readonly exports: ExportRequestService;
  readonly ocr: OcrService;
  readonly scans: ScannedPages;
  readonly backups: BackupService;
}

const built = new WeakMap<AppContext, Services>();

/** The services over a context (the same object every time for one context). */
export function servicesOf(ctx: AppContext): Services {
  const known = built.get(ctx);
  if (known) return known;
  const audit = new AuditService(ctx);
  const places = new PlaceService(ctx);
  const sources = new SourceService(ctx);
  const registry = new RegistryService(ctx, audit);
  const catalogue = new EvidenceCatalogue(ctx);
  const bodyLabels = new BodyLabels(ctx, catalogue);
  const identifications = new IdentificationService(ctx);
  const ocr = new OcrService(ctx, { catalogue, bodyLabels });
  const services: Services = {
    ctx,
    audit,
    authenticator: new Authenticator(ctx),
    accounts: new AccountService(ctx, audit),
    health: new HealthService(ctx),
    places,
    units: new UnitService(ctx, audit),
    sources,
    stats: new StatsService(ctx),
    registry,
    search: new RecordSearch(ctx, { registry, places, sources, audit }),
    imports: new ImportService(ctx),
    intake: new IntakeService(ctx, audit),
    catalogue,
    bodyLabels,
    evidence: new EvidenceAccess(ctx, {
      catalogue,
      bodyLabels,
      grants: new RevealGrants(ctx.config.server.revealKey ?? undefined),
      audit,
    }),
    ingestRuns: new IngestRunService(ctx, audit),
    uploads: new UploadService(ctx, audit),
    review: new ReviewQueue(ctx, audit),
    identifications,
    log: new LedgerLog(ctx.store),
    tracing: new TracingService(ctx, { audit, identifications }),
    estimate: new EstimateService(ctx, { sources, audit }),
    exports: new ExportRequestService(ctx, { audit }),
    ocr,
    scans: new ScannedPages(ctx, { catalogue, ocr, registry, sources, audit }),
    backups: new BackupService(ctx, audit),
  };
  built.set(ctx, services);
  return services;
}
