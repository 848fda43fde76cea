import type { Caller } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { TracingRepository, type TracingRun } from '../../store/repositories/tracing.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import type { IdentificationService } from '../review/identifications.js';
import { type RegistryLinkOptions, type RegistryLinkSummary, runRegistryLink } from './registry-link.js';
import { tracingQueued } from './signal.js';
import { Tracer } from './tracer.js';

export interface TracingStatus {
  /** Records and labels waiting to be linked and matched. */
  pending: number;
  /** The registry-wide run under way, if any, with its stage and progress. */
  running: TracingRun | null;
  /** The latest runs, newest first. */
  recent: TracingRun[];
  /** Records in the loop's match index once built (null before, and in a process that runs no loop). */
  indexedRecords: number | null;
}

export interface ReportCandidate {
  recordId: string | null;
  personId: string | null;
  evidenceId: string | null;
  probability: number;
  matchWeight: number | null;
  modelVersion: string;
  explanation: unknown;
  createdAt: string;
}

/** The tracing loop as the rest of athar sees it: its state, its runs, reports' candidates. */
export class TracingService {
  readonly tracer: Tracer;

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: { audit: AuditService; identifications: IdentificationService },
  ) {
    this.tracer = new Tracer(ctx, deps.identifications);
  }

  private repo(): TracingRepository {
    return new TracingRepository(this.ctx.store.db, this.ctx.store.capabilities);
  }

  /** Wakes the loop (records or labels were just queued by this process). */
  queued(): void {
    tracingQueued(this.ctx.store);
  }

  async status(): Promise<TracingStatus> {
    const repo = this.repo();
    const recent = await repo.runs(10);
    return {
      pending: await repo.pending(),
      running: recent.find((r) => r.status === 'running' && r.kind === 'full') ?? null,
      recent,
      indexedRecords: this.tracer.indexedRecords,
    };
  }

  /** How far the records an import stored have been linked and matched. */
  async importProgress(importId: string): Promise<{ pending: number }> {
    return { pending: await this.repo().pending(importId) };
  }

  /** `athar registry link`, or the same started in the server. */
  link(options: RegistryLinkOptions = {}): Promise<RegistryLinkSummary> {
    return runRegistryLink(this.ctx.store, { clock: () => this.ctx.clock(), ...options });
  }

  /**
   * A family report's candidates for a liaison (audited): the registry records it may be, best first, with the
   * probability, the explanation, and the evidence involved.
   */
  async candidates(reportId: string, caller: Caller): Promise<ReportCandidate[]> {
    const repo = this.repo();
    if (!(await repo.reportExists(reportId))) throw new DomainError('not_found', `no report ${reportId}`);
    const rows = await repo.candidates(reportId);
    const persons = await repo.personsOf(rows.flatMap((r) => (r.record_id ? [r.record_id] : [])));
    await this.deps.audit.record(caller, {
      action: 'read_candidates',
      subjectType: 'report',
      subjectId: reportId,
      details: { count: rows.length },
    });
    return rows.map((r) => ({
      recordId: r.record_id,
      personId: r.record_id ? (persons.get(r.record_id) ?? null) : null,
      evidenceId: r.evidence_id,
      probability: r.probability,
      matchWeight: r.match_weight,
      modelVersion: r.model_version,
      explanation: r.explanation ? JSON.parse(r.explanation) : null,
      createdAt: r.created_at,
    }));
  }
}
