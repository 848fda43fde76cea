import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, type List, type Progress } from '../api.js';
import { ErrorNote, Loading, useFormatDate } from '../components/common.js';
import { usePoll } from '../components/poll.js';
import { apiWord, fieldLabel } from '../lib/index.js';
import { useSession } from '../session.js';
import { UploadPanel } from './upload.js';

const finished = new Set([
  'done',
  'finished',
  'completed',
  'complete',
  'failed',
  'cancelled',
  'succeeded',
  'error',
  'interrupted',
]);

function ProgressBar({ item }: { item: Progress }) {
  const { t } = useTranslation();
  const total = item.total ?? 0;
  return (
    <div className="progress">
      <progress value={item.done} max={total || undefined} aria-label={t('Progress')} />
      <span>
        {total
          ? t('{{done}} of {{total}}', { done: item.done, total })
          : t('{{done}} so far', { done: item.done })}
      </span>
    </div>
  );
}

export function IngestScreen() {
  const { t } = useTranslation();
  const { can } = useSession();
  const formatDate = useFormatDate();
  const { data, error } = usePoll(
    () => api.get<List<Progress>>('/api/ingest-runs'),
    (d) => d.items.some((i) => !finished.has(i.status)),
    [],
  );
  return (
    <section>
      <h1 tabIndex={-1}>{t('Ingest runs')}</h1>
      {can('evidence:ingest') ? (
        <UploadPanel />
      ) : (
        <p className="muted">
          {t('Files are ingested with the command line (athar ingest); this page follows the runs.')}
        </p>
      )}
      <h2>{t('Runs')}</h2>
      <ErrorNote error={error} />
      {!data && !error && <Loading />}
      {data && data.items.length === 0 && <p className="muted">{t('None yet.')}</p>}
      <ul className="cards" aria-live="polite">
        {(data?.items ?? []).map((i) => (
          <li key={i.id} className="card" data-status={i.status}>
            <div>
              <p>
                <strong>{t(apiWord(i.status))}</strong> · {formatDate(String(i.startedAt ?? ''))}
              </p>
              {Array.isArray(i.roots) && (
                <p dir="ltr" className="muted">
                  {(i.roots as string[]).join(', ')}
                </p>
              )}
              <ProgressBar item={i} />
              {i.status === 'finished' && can('exports:request') && (
                <p>
                  <Link to={`/exports?run=${encodeURIComponent(String(i.id))}`}>
                    {t('Ask for a court bundle')}
                  </Link>
                </p>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

interface ImportProgress extends Progress {
  fileName?: string;
  dryRun?: boolean;
  created?: number;
  skipped?: number;
  errorCount?: number;
  errors?: { row?: number; line?: number; field?: string; message?: string }[];
  failure?: string | null;
  /** Its records still waiting for the tracing loop to link and match them. */
  linking?: { pending: number };
}

export function ImportScreen() {
  const { t } = useTranslation();
  const { can } = useSession();
  const { id = '' } = useParams();
  const { data, error } = usePoll(
    () => api.get<ImportProgress>(`/api/imports/${encodeURIComponent(id)}`),
    // Poll until the import is done and the tracing loop has linked and matched every record of it.
    (d) => !finished.has(d.status) || (d.linking?.pending ?? 0) > 0,
    [id],
  );
  return (
    <section>
      <h1 tabIndex={-1} dir="auto">
        {data?.fileName ?? t('Import')}
      </h1>
      <ErrorNote error={error} />
      {!data && !error && <Loading />}
      {data && (
        <div aria-live="polite" data-status={data.status}>
          <p>
            <strong>{t(apiWord(data.status))}</strong>
            {data.dryRun && ` · ${t('trial run')}`}
          </p>
          <ProgressBar item={data} />
          <dl className="narrow">
            <div className="field-row">
              <dt>{t('Created')}</dt>
              <dd>{data.created ?? 0}</dd>
            </div>
            <div className="field-row">
              <dt>{t('Skipped')}</dt>
              <dd>{data.skipped ?? 0}</dd>
            </div>
            <div className="field-row">
              <dt>{t('Rows with problems')}</dt>
              <dd>{data.errorCount ?? 0}</dd>
            </div>
          </dl>
          {data.status === 'finished' && !data.dryRun && data.linking && (
            <p data-linking={data.linking.pending > 0 ? 'pending' : 'done'}>
              {data.linking.pending > 0
                ? t('Linking and matching: {{count}} records still to compare with the registry', {
                    count: data.linking.pending,
                  })
                : t(
                    'Linked and matched: every record of this import belongs to a person, and pairs to decide are in the review queue.',
                  )}{' '}
              {data.linking.pending === 0 && can('review:read') && (
                <Link to="/review">{t('Review queue')}</Link>
              )}
            </p>
          )}
          {data.failure && <p className="error-note">{data.failure}</p>}
          {(data.errors ?? []).length > 0 && (
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('Row')}</th>
                    <th scope="col">{t('Field')}</th>
                    <th scope="col">{t('Problem')}</th>
                  </tr>
                </thead>
                <tbody>
                  {(data.errors ?? []).slice(0, 200).map((p, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a row can have several problems; order is stable.
                    <tr key={`${p.row}-${p.field}-${i}`}>
                      <td>{p.row}</td>
                      <td>{p.field ? t(fieldLabel(p.field)) : ''}</td>
                      <td dir="ltr">{p.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
