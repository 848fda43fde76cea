import type { SignedIn } from '../../access/caller.js';
import { conflict } from '../../domain/errors.js';
import { newId, nowIso } from '../../ids.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import {
  type BackupReport,
  backup,
  checkSnapshot,
  listSnapshots,
  type SnapshotCheck,
  type SnapshotSummary,
} from './backup.js';

/** A backup or a check the server runs for the backups screen. */
export interface BackupJob {
  id: string;
  kind: 'backup' | 'check';
  status: 'running' | 'finished' | 'failed';
  startedAt: string;
  startedBy: string;
  finishedAt: string | null;
  /** A check: blobs re-hashed so far, of how many. */
  done: number;
  total: number;
  withKeys: boolean;
  snapshot: string | null;
  report: BackupReport | null;
  check: SnapshotCheck | null;
  failure: string | null;
}

export interface BackupsView {
  /** The backup folder on the server (ATHAR_BACKUPS). */
  target: string;
  dialect: 'sqlite' | 'postgres';
  snapshots: SnapshotSummary[];
  /** The running job, or the last ones this process ran (newest first). */
  jobs: BackupJob[];
}

/**
 * Backups from the browser (the /backups screen, admins): the same `backup` as `athar backup`, into the folder the
 * server is configured with, one job at a time, in the background; a snapshot can be checked (every blob re-hashed)
 * without restoring it. Restoring stays on the command line: it goes into an empty place, not the running archive.
 * Every start, end and check is an audit row.
 */
export class BackupService {
  private jobs: BackupJob[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {}

  get target(): string {
    return this.ctx.config.backups.dir;
  }

  view(): BackupsView {
    return {
      target: this.target,
      dialect: this.ctx.config.database.kind,
      snapshots: listSnapshots(this.target),
      jobs: this.jobs.slice(0, 10),
    };
  }

  job(id: string): BackupJob | undefined {
    return this.jobs.find((j) => j.id === id);
  }

  /** Starts a backup; `withKeys` puts the signing and contacts keys in it (the screen warns first). */
  async startBackup(caller: SignedIn, withKeys: boolean): Promise<BackupJob> {
    const job = this.newJob(caller, 'backup', withKeys, null);
    await this.audit.record(caller, {
      action: 'backup.started',
      subjectType: 'backup',
      subjectId: job.id,
      details: { keys: withKeys },
    });
    this.run(job, caller, async () => {
      job.report = await backup(this.ctx, this.target, { keys: withKeys });
      job.snapshot = job.report.snapshot;
    });
    return job;
  }

  /** Re-hashes every blob a snapshot needs and checks its database copy and keys are there. */
  async startCheck(caller: SignedIn, snapshot: string): Promise<BackupJob> {
    if (!listSnapshots(this.target).some((s) => s.id === snapshot && s.complete))
      throw conflict(`no complete snapshot ${snapshot} in the backup folder`, 'snapshot');
    const job = this.newJob(caller, 'check', false, snapshot);
    await this.audit.record(caller, {
      action: 'backup.check_started',
      subjectType: 'backup',
      subjectId: job.id,
      details: { snapshot },
    });
    this.run(job, caller, async () => {
      job.check = await checkSnapshot(this.target, snapshot, (done, total) => {
        job.done = done;
        job.total = total;
      });
    });
    return job;
  }

  /** Waits for the running job (a closing server lets it finish). */
  async settle(): Promise<void> {
    await this.running;
  }

  private newJob(
    caller: SignedIn,
    kind: BackupJob['kind'],
    withKeys: boolean,
    snapshot: string | null,
  ): BackupJob {
    if (this.running) throw conflict('a backup or a check is running; wait until it ends');
    const job: BackupJob = {
      id: newId(),
      kind,
      status: 'running',
      startedAt: nowIso(),
      startedBy: caller.actor.userId,
      finishedAt: null,
      done: 0,
      total: 0,
      withKeys,
      snapshot,
      report: null,
      check: null,
      failure: null,
    };
    this.jobs.unshift(job);
    this.jobs.length = Math.min(this.jobs.length, 20);
    return job;
  }

  private run(job: BackupJob, caller: SignedIn, work: () => Promise<void>): void {
    this.running = (async () => {
      try {
        await work();
        job.status = 'finished';
      } catch (error) {
        job.status = 'failed';
        // The admin sees why (a folder not writable, a full disk): the messages name server paths, never people.
        job.failure = error instanceof Error ? error.message : String(error);
      } finally {
        job.finishedAt = nowIso();
        this.running = null;
        await this.audit
          .record(caller, {
            action: job.kind === 'backup' ? 'backup.finished' : 'backup.checked',
            subjectType: 'backup',
            subjectId: job.id,
            details: {
              status: job.status,
              snapshot: job.snapshot,
              ...(job.check ? { ok: job.check.ok, problems: job.check.problems.length } : {}),
              ...(job.report ? { rows: job.report.rows, blobsCopied: job.report.blobs.copied } : {}),
            },
          })
          .catch(() => undefined);
      }
    })();
  }
}
