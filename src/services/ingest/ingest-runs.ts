import { type Caller, can } from '../../access/caller.js';
import { EvidenceCatalogueRepository } from '../../store/repositories/evidence-catalogue.js';
import { type IngestRun, IngestRunRepository } from '../../store/repositories/ingest-runs.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';

/**
 * Ingest runs with how many places each has recorded so far (their progress while they run). A run's custodian,
 * note and roots are provenance: a caller who may read them (`evidence:provenance`) is audited for the read.
 */
export class IngestRunService {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {}

  async list(limit: number, caller: Caller): Promise<{ run: IngestRun; found: number }[]> {
    const runs = await new IngestRunRepository(this.ctx.store.db).list(limit);
    const found = await new EvidenceCatalogueRepository(this.ctx.store.db).locationsPerRun(
      runs.map((r) => r.id),
    );
    if (runs.length > 0 && can(caller, 'evidence:provenance')) {
      await this.audit.record(caller, {
        action: 'ingest_runs_provenance_read',
        details: { runs: runs.map((r) => r.id) },
      });
    }
    return runs.map((run) => ({ run, found: found.get(run.id) ?? 0 }));
  }

  async get(id: string, caller: Caller): Promise<{ run: IngestRun; found: number } | undefined> {
    const run = await new IngestRunRepository(this.ctx.store.db).get(id);
    if (!run) return undefined;
    const found = await new EvidenceCatalogueRepository(this.ctx.store.db).locationsPerRun([id]);
    if (can(caller, 'evidence:provenance')) {
      await this.audit.record(caller, {
        action: 'ingest_runs_provenance_read',
        subjectType: 'ingest_run',
        subjectId: id,
      });
    }
    return { run, found: found.get(id) ?? 0 };
  }
}
