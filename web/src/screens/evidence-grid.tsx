import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, type EvidenceRow, type List, type Progress } from '../api.js';
import { BlurredThumbnail, ErrorNote, Loading, useFormatDate, useLoad } from '../components/common.js';
import { asciiDigits, msg } from '../lib/index.js';
import { useSession } from '../session.js';
import { annotationKindNames, readFromNames } from './evidence-labels.js';

const filterNames = [
  'ingestRun',
  'source',
  'hasAnnotations',
  'nearDuplicates',
  'decodeStatus',
  'from',
  'to',
  'group',
];
type Filters = Record<string, string>;

const decodeStatuses = [
  ['decoded', msg('decoded')],
  ['undecodable', msg('could not be decoded')],
  ['pixel_limit', msg('too large to decode')],
  ['not_image', msg('not an image')],
] as const;

export function decodeLabel(status: string | null | undefined): string {
  return decodeStatuses.find(([s]) => s === status)?.[1] ?? status ?? '';
}

const pageSize = 60;

/** The same annotation for every selected item (a folder that names the branch, a batch from one card series). */
function BulkAnnotate({ selected, onDone }: { selected: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ kind: 'branch_number', value: '', readFrom: 'folder' });
  const [error, setError] = useState<unknown>(null);
  const [answer, setAnswer] = useState<{ ok: number; failed: number } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setAnswer(null);
    try {
      const result = await api.post<{ items: { ok: boolean }[] }>('/api/evidence/annotations', {
        evidenceIds: selected,
        kind: form.kind,
        value: asciiDigits(form.value),
        readFrom: form.readFrom || null,
      });
      setAnswer({
        ok: result.items.filter((i) => i.ok).length,
        failed: result.items.filter((i) => !i.ok).length,
      });
      setForm({ ...form, value: '' });
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={submit} className="form search-form bulk" aria-labelledby="bulk-title">
      <h2 id="bulk-title" className="wide">
        {t('Annotate the selected items ({{count}})', { count: selected.length })}
      </h2>
      <label>
        {t('What was read')}
        <select name="kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value })}>
          {annotationKindNames.map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('Value, as written')}
        <input
          name="value"
          required
          dir="auto"
          value={form.value}
          onChange={(e) => setForm({ ...form, value: e.target.value })}
        />
      </label>
      <label>
        {t('Where it was read')}
        <select
          name="readFrom"
          value={form.readFrom}
          onChange={(e) => setForm({ ...form, readFrom: e.target.value })}
        >
          {readFromNames.map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={selected.length === 0}>
        {t('Annotate')}
      </button>
      <div className="wide">
        <ErrorNote error={error} />
        {answer && (
          <p role="status" className="ok">
            {t('Annotated: {{ok}}. Refused: {{failed}}.', answer)}
          </p>
        )}
      </div>
    </form>
  );
}

/**
 * The whole vault as a grid of blurred thumbnails (never an original: every image is the server's thumbnail,
 * blurred again on screen), filtered in the URL, paged by keyset ("show more"), with multi-select for annotating
 * many items alike.
 */
export function EvidenceGridScreen() {
  const { t } = useTranslation();
  const { can } = useSession();
  const formatDate = useFormatDate();
  const [params, setParams] = useSearchParams();
  const current: Filters = Object.fromEntries(filterNames.map((n) => [n, params.get(n) ?? '']));
  const [form, setForm] = useState<Filters>(current);
  const query = params.toString();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [more, setMore] = useState<{ items: EvidenceRow[]; cursor?: string; forQuery: string } | null>(null);
  const options = useLoad(async () => {
    const [runs, sources] = await Promise.all([
      api.get<List<Progress>>('/api/ingest-runs', { limit: 100 }).catch(() => ({ items: [] })),
      can('sources:read')
        ? api
            .get<List<{ id: string; name: string }>>('/api/sources', { limit: 200 })
            .catch(() => ({ items: [] }))
        : { items: [] },
    ]);
    return { runs: runs.items, sources: sources.items };
  }, []);
  const first = useLoad(
    () => api.get<List<EvidenceRow>>('/api/evidence', { ...current, limit: pageSize }),
    [query],
  );
  const extra = more?.forQuery === query ? more : null;
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const nextCursor = extra ? extra.cursor : first.data?.nextCursor;
  const annotate = can('evidence:annotate');

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const n of filterNames) if (form[n]?.trim()) next.set(n, (form[n] as string).trim());
    setSelected(new Set());
    setParams(next);
  }

  async function loadMore() {
    if (!nextCursor) return;
    const page = await api.get<List<EvidenceRow>>('/api/evidence', {
      ...current,
      limit: pageSize,
      cursor: nextCursor,
    });
    setMore({ items: [...(extra?.items ?? []), ...page.items], cursor: page.nextCursor, forQuery: query });
  }

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const set = (name: string) => (e: { target: { value: string } }) =>
    setForm({ ...form, [name]: e.target.value });

  return (
    <section>
      <h1 tabIndex={-1}>{t('Evidence')}</h1>
      <search>
        <form onSubmit={submit} className="form search-form">
          <label>
            {t('Ingest run')}
            <select name="ingestRun" value={form.ingestRun} onChange={set('ingestRun')}>
              <option value="">{t('Any')}</option>
              {(options.data?.runs ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {formatDate(String(r.startedAt ?? ''))} ·{' '}
                  {String((r.roots as string[] | undefined)?.[0] ?? '')}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('Source')}
            <select name="source" value={form.source} onChange={set('source')}>
              <option value="">{t('Any')}</option>
              {(options.data?.sources ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('Labelled')}
            <select name="hasAnnotations" value={form.hasAnnotations} onChange={set('hasAnnotations')}>
              <option value="">{t('Any')}</option>
              <option value="true">{t('labelled')}</option>
              <option value="false">{t('not labelled yet')}</option>
            </select>
          </label>
          <label>
            {t('Near-duplicates')}
            <select name="nearDuplicates" value={form.nearDuplicates} onChange={set('nearDuplicates')}>
              <option value="">{t('Any')}</option>
              <option value="true">{t('has near-duplicates')}</option>
              <option value="false">{t('no near-duplicate')}</option>
            </select>
          </label>
          <label>
            {t('Decoding')}
            <select name="decodeStatus" value={form.decodeStatus} onChange={set('decodeStatus')}>
              <option value="">{t('Any')}</option>
              {decodeStatuses.map(([value, label]) => (
                <option key={value} value={value}>
                  {t(label)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('Stored from')}
            <input type="date" name="from" value={form.from} onChange={set('from')} />
          </label>
          <label>
            {t('Stored until')}
            <input type="date" name="to" value={form.to} onChange={set('to')} />
          </label>
          <button type="submit">{t('Filter')}</button>
        </form>
      </search>
      {params.get('group') && (
        <p className="muted">
          {t('Showing one group of near-duplicates.')} <Link to="/evidence">{t('Show all')}</Link>
        </p>
      )}

      {annotate && <BulkAnnotate selected={[...selected]} onDone={first.reload} />}

      {first.loading && !first.data && <Loading />}
      <ErrorNote error={first.error} />
      {first.data && (
        <p role="status" className="muted">
          {items.length === 0
            ? t('No evidence matches.')
            : t('Items shown: {{count}}', { count: items.length })}
          {annotate && selected.size > 0 && ` · ${t('selected: {{count}}', { count: selected.size })}`}
        </p>
      )}
      <ul className="evidence-grid">
        {items.map((item) => (
          <li
            key={item.id}
            data-evidence={item.id}
            className={selected.has(item.id) ? 'selected' : undefined}
          >
            <Link to={`/evidence/${item.id}`} className="tile">
              <BlurredThumbnail evidenceId={item.id} label={t('Blurred evidence image')} />
              <span className="tile-name" dir="auto">
                {item.originalName ?? item.sha256.slice(0, 12)}
              </span>
            </Link>
            <span className="tile-meta">
              {item.annotations > 0 ? (
                <span className="badge">{t('labels: {{count}}', { count: item.annotations })}</span>
              ) : (
                <span className="badge muted-badge">{t('not labelled yet')}</span>
              )}
              {item.groupSize > 1 && item.groupId && (
                <Link className="badge" to={`/evidence?group=${encodeURIComponent(item.groupId)}`}>
                  {t('near-duplicates: {{count}}', { count: item.groupSize - 1 })}
                </Link>
              )}
              {item.decodeStatus && item.decodeStatus !== 'decoded' && (
                <span className="badge warn-badge">{t(decodeLabel(item.decodeStatus))}</span>
              )}
            </span>
            {annotate && (
              <label className="check tile-select">
                <input
                  type="checkbox"
                  checked={selected.has(item.id)}
                  onChange={() => toggle(item.id)}
                  name="selected"
                  value={item.id}
                />
                <span>
                  {t('Select')}
                  <span className="visually-hidden"> {item.originalName ?? item.id}</span>
                </span>
              </label>
            )}
          </li>
        ))}
      </ul>
      {nextCursor && (
        <button type="button" onClick={() => void loadMore()}>
          {t('Show more')}
        </button>
      )}
    </section>
  );
}
