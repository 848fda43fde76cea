import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.js';
import { ErrorNote, Loading, useFormatDate } from '../components/common.js';
import { usePoll } from '../components/poll.js';
import { bytesText } from '../lib/index.js';

interface Snapshot {
  id: string;
  complete: boolean;
  createdAt: string | null;
  dialect: 'sqlite' | 'postgres' | null;
  rows: number | null;
  blobs: { count: number; bytes: number } | null;
  keys: string[];
  databaseBytes: number | null;
}

interface Job {
  id: string;
  kind: 'backup' | 'check';
  status: 'running' | 'finished' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  done: number;
  total: number;
  withKeys: boolean;
  snapshot: string | null;
  report: {
    rows: number;
    blobs: { count: number; copied: number; reused: number; copiedBytes: number };
    ms: number;
  } | null;
  check: { ok: boolean; blobsChecked: number; bytesChecked: number; problems: string[] } | null;
  failure: string | null;
}

interface Backups {
  target: string;
  dialect: 'sqlite' | 'postgres';
  snapshots: Snapshot[];
  jobs: Job[];
}

/** What a job says in a sentence: how a backup went, or what a check found. */
function JobLine({ job }: { job: Job }) {
  const { t, i18n } = useTranslation();
  const formatDate = useFormatDate();
  const when = formatDate(job.finishedAt ?? job.startedAt);
  if (job.status === 'running')
    return (
      <p role="status">
        {job.kind === 'backup'
          ? t('Backing up…')
          : t('Checking snapshot {{id}}: {{done}} of {{total}} files', {
              id: job.snapshot,
              done: job.done,
              total: job.total,
            })}
      </p>
    );
  if (job.status === 'failed')
    return (
      <div className="error-note" role="alert">
        <p>
          {job.kind === 'backup' ? t('The backup failed') : t('The check failed')} · {when}
        </p>
        <p dir="ltr">{job.failure}</p>
      </div>
    );
  if (job.kind === 'backup' && job.report)
    return (
      <p>
        {t(
          'Backup {{id}} made: {{rows}} rows, {{copied}} new files copied ({{bytes}}), {{reused}} already in the folder',
          {
            id: job.snapshot,
            rows: job.report.rows,
            copied: job.report.blobs.copied,
            bytes: bytesText(job.report.blobs.copiedBytes, i18n.language),
            reused: job.report.blobs.reused,
          },
        )}{' '}
        · {when}
      </p>
    );
  if (job.check)
    return job.check.ok ? (
      <p className="notice" data-check="ok">
        {t(
          'Snapshot {{id}} is whole: its database copy is there and all {{count}} files match their hashes',
          {
            id: job.snapshot,
            count: job.check.blobsChecked,
          },
        )}{' '}
        · {when}
      </p>
    ) : (
      <div className="error-note" role="alert" data-check="faults">
        <p>{t('Snapshot {{id}} is damaged: do not rely on it; make a new backup', { id: job.snapshot })}</p>
        <ul dir="ltr">
          {job.check.problems.slice(0, 20).map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </div>
    );
  return null;
}

/**
 * Backups (admins): the server's backup folder and its snapshots, a backup now (the keys only when asked, with the
 * warning), a check of any snapshot, and how to restore one with the command line — into an empty place, never
 * over the running archive. docs/exchange.md.
 */
export function BackupsScreen() {
  const { t, i18n } = useTranslation();
  const formatDate = useFormatDate();
  const [withKeys, setWithKeys] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const {
    data,
    error: loadError,
    reload,
  } = usePoll(
    () => api.get<Backups>('/api/backups'),
    (d) => d.jobs.some((j) => j.status === 'running'),
    [],
  );
  const running = data?.jobs.some((j) => j.status === 'running') ?? false;

  async function start(path: string, body: unknown) {
    setError(null);
    try {
      await api.post(path, body);
      reload();
    } catch (err) {
      setError(err);
    }
  }

  const latest = data?.snapshots.find((s) => s.complete);
  const restoreCommand = (s: Snapshot) =>
    `athar restore ${data?.target ?? ''} --snapshot ${s.id} --data NEW-FOLDER${s.dialect === 'postgres' ? ' --database-url postgres://…/EMPTY-DATABASE' : ''}`;

  return (
    <section>
      <h1 tabIndex={-1}>{t('Backups')}</h1>
      <ErrorNote error={loadError} />
      {!data && !loadError && <Loading />}
      {data && (
        <>
          <p>
            {t('Backups go into this folder on the server:')} <bdi dir="ltr">{data.target}</bdi>
          </p>
          <p className="muted">
            {t(
              'Each backup copies the database while athar runs and only the files that are new since the last backup. Keep the folder on another disk, and copy it off the machine.',
            )}
          </p>
          <form
            className="form narrow"
            aria-labelledby="backup-now"
            onSubmit={(e) => {
              e.preventDefault();
              void start('/api/backups', { keys: withKeys });
            }}
          >
            <h2 id="backup-now">{t('Back up now')}</h2>
            <label className="check">
              <input
                type="checkbox"
                name="keys"
                checked={withKeys}
                onChange={(e) => setWithKeys(e.target.checked)}
              />
              <span>
                {t('Put the keys in the backup (the log’s signing key and the key of contact details)')}
              </span>
            </label>
            {withKeys && (
              <p className="notice" role="note">
                {t(
                  'Whoever holds a backup with the keys can sign the log and open families’ contact details. Keep it as safe as the server, or leave the keys out and keep them apart.',
                )}
              </p>
            )}
            <ErrorNote error={error} />
            <button type="submit" disabled={running}>
              {t('Back up now')}
            </button>
          </form>
          {data.jobs.length > 0 && (
            <div aria-live="polite" data-job={data.jobs[0]?.status}>
              <JobLine job={data.jobs[0] as Job} />
            </div>
          )}
          <h2>{t('Snapshots')}</h2>
          {data.snapshots.length === 0 && <p className="muted">{t('No backup yet.')}</p>}
          {data.snapshots.length > 0 && (
            <div className="table-scroll">
              <table className="snapshots">
                <thead>
                  <tr>
                    <th scope="col">{t('Made')}</th>
                    <th scope="col">{t('Rows')}</th>
                    <th scope="col">{t('Files')}</th>
                    <th scope="col">{t('Keys')}</th>
                    <th scope="col">{t('Whole?')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.snapshots.map((s) => (
                    <tr key={s.id} data-snapshot={s.id} data-complete={s.complete}>
                      <th scope="row">
                        {s.createdAt ? formatDate(s.createdAt) : <bdi dir="ltr">{s.id}</bdi>}
                        {!s.complete && (
                          <span className="muted"> · {t('incomplete: the backup did not finish')}</span>
                        )}
                      </th>
                      <td>{s.rows === null ? '' : new Intl.NumberFormat(i18n.language).format(s.rows)}</td>
                      <td>
                        {s.blobs
                          ? `${new Intl.NumberFormat(i18n.language).format(s.blobs.count)} · ${bytesText(s.blobs.bytes, i18n.language)}`
                          : ''}
                      </td>
                      <td>{s.keys.length > 0 ? t('included') : t('left out')}</td>
                      <td>
                        {s.complete && (
                          <button
                            type="button"
                            disabled={running}
                            onClick={() => void start(`/api/backups/${encodeURIComponent(s.id)}/check`, {})}
                            aria-label={t('Check it: the snapshot of {{date}}', {
                              date: s.createdAt ? formatDate(s.createdAt) : s.id,
                            })}
                          >
                            {t('Check it')}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h2>{t('Restoring')}</h2>
          <p>
            {t(
              'A snapshot is restored with the command line, into a new empty folder (and, for PostgreSQL, an empty database), never over the running archive. Every count is checked; then run athar verify and start athar on the new folder.',
            )}
          </p>
          {latest && (
            <pre dir="ltr" className="command" data-restore={latest.id}>
              {restoreCommand(latest)}
            </pre>
          )}
          {data.jobs.length > 1 && (
            <>
              <h2>{t('Earlier jobs since the server started')}</h2>
              <ul className="jobs">
                {data.jobs.slice(1).map((j) => (
                  <li key={j.id}>
                    <JobLine job={j} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
