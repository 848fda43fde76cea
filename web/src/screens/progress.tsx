import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, type List, type Progress } from '../api.js';
import { ErrorNote, Loading, useFormatDate } from '../components/common.js';
import { apiWord } from '../lib/index.js';

const finished = new Set(['done', 'completed', 'complete', 'failed', 'cancelled', 'succeeded', 'error']);

/** Polls while anything is still running, so the page shows live progress without a socket. */
function usePoll<T>(load: () => Promise<T>, running: (data: T) => boolean, deps: unknown[], every = 2000) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await load();
        if (!live) return;
        setData(next);
        setError(null);
        if (running(next)) timer = setTimeout(tick, every);
      } catch (err) {
        if (live) setError(err);
      }
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...deps]);
  return { data, error };
}

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

function ProgressList({ title, path, link }: { title: string; path: string; link?: (id: string) => string }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const { data, error } = usePoll(
    () => api.get<List<Progress>>(path),
    (d) => d.items.some((i) => !finished.has(i.status)),
    [path],
  );
  return (
    <section>
      <h1 tabIndex={-1}>{title}</h1>
      <ErrorNote error={error} />
      {!data && !error && <Loading />}
      {data && data.items.length === 0 && <p className="muted">{t('None yet.')}</p>}
      <ul className="cards" aria-live="polite">
        {(data?.items ?? []).map((i) => (
          <li key={i.id} className="card" data-status={i.status}>
            <p>
              {link ? (
                <Link to={link(i.id)}>{String(i.name ?? i.source ?? i.id)}</Link>
              ) : (
                String(i.source ?? i.name ?? i.id)
              )}
              {' · '}
              <strong>{t(apiWord(i.status))}</strong>
            </p>
            <ProgressBar item={i} />
            <p className="muted">{formatDate(String(i.startedAt ?? i.createdAt ?? ''))}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function IngestScreen() {
  const { t } = useTranslation();
  return <ProgressList title={t('Ingest runs')} path="/api/ingest-runs" />;
}

export function ImportsScreen() {
  const { t } = useTranslation();
  return <ProgressList title={t('Imports')} path="/api/imports" link={(id) => `/imports/${id}`} />;
}

export function ImportScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, error } = usePoll(
    () => api.get<Progress>(`/api/imports/${encodeURIComponent(id)}`),
    (d) => !finished.has(d.status),
    [id],
  );
  const problems = Array.isArray(data?.errors)
    ? (data.errors as { row?: number; index?: number; error?: string; message?: string }[])
    : [];
  return (
    <section>
      <h1 tabIndex={-1}>{t('Import')}</h1>
      <ErrorNote error={error} />
      {!data && !error && <Loading />}
      {data && (
        <>
          <p>
            <strong>{t(apiWord(data.status))}</strong>
          </p>
          <ProgressBar item={data} />
          {problems.length > 0 && (
            <>
              <h2>{t('Rows with problems')}</h2>
              <ul>
                {problems.slice(0, 200).map((p, i) => (
                  <li key={p.row ?? p.index ?? i} dir="auto">
                    {t('Row')} {p.row ?? p.index}: {p.error ?? p.message}
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
