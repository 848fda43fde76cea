import { EvidenceCatalogueRepository } from '../../store/repositories/evidence-catalogue.js';
import { type IngestRun, IngestRunRepository } from '../../store/repositories/ingest-runs.js';
import type { AppContext } from '../context.js';

/** Ingest runs with how many places each has recorded so far (their progress while they run). */
export class IngestRunService {
  constructor(private readonly ctx: AppContext) {}

  async list(limit: number): Promise<{ run: IngestRun; found: number }[]> {
    const runs = await new IngestRunRepository(this.ctx.store.db).list(limit);
    const found = await new EvidenceCatalogueRepository(this.ctx.store.db).locationsPerRun(
      runs.map((r) => r.id),
    );
    return runs.map((run) => ({ run, found: found.get(run.id) ?? 0 }));
  }

  async get(id: string): Promise<{ run: IngestRun; found: number } | undefined> {
    const run = await new IngestRunRepository(this.ctx.store.db).get(id);
    if (!run) return undefined;
    const found = await new EvidenceCatalogueRepository(this.ctx.store.db).locationsPerRun([id]);
    return { run, found: found.get(id) ?? 0 };
  }
}
