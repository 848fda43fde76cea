import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, type List, type Place, type RecordItem, searchRecords } from '../api.js';
import { ErrorNote, Loading, useFormatDate, useLoad, usePlaceName } from '../components/common.js';
import { msg, reasonSentence } from '../lib/index.js';
import { useSession } from '../session.js';

const filterNames = ['q', 'governorate', 'branch', 'source', 'status', 'from', 'to'] as const;
type Filters = Record<(typeof filterNames)[number], string>;

export const caseStatuses = [
  ['reported_missing', msg('Reported missing')],
  ['believed_alive', msg('Believed alive')],
  ['believed_dead_unconfirmed', msg('Believed dead, not confirmed')],
  ['identified_deceased', msg('Identified, deceased')],
  ['remains_unidentified', msg('Remains not identified')],
  ['found_alive', msg('Found alive')],
  ['closed_duplicate', msg('Closed as a duplicate')],
] as const;

export function statusLabel(status: string): string {
  return caseStatuses.find(([s]) => s === status)?.[1] ?? status;
}

/** Places and sources for the filters; a role without places:read or sources:read simply gets fewer filters. */
function useFilterOptions() {
  const { can } = useSession();
  const places = can('places:read');
  const sources = can('sources:read');
  return useLoad(async () => {
    const [governorates, branches, sourceList] = await Promise.all([
      places ? api.get<List<Place>>('/api/governorates').catch(() => ({ items: [] })) : { items: [] },
      places ? api.get<List<Place>>('/api/branches').catch(() => ({ items: [] })) : { items: [] },
      sources
        ? api
            .get<List<{ id: string; name: string }>>('/api/sources', { limit: 200 })
            .catch(() => ({ items: [] }))
        : { items: [] },
    ]);
    return { governorates: governorates.items, branches: branches.items, sources: sourceList.items };
  }, [places, sources]);
}

export function SearchScreen() {
  const { t } = useTranslation();
  const placeName = usePlaceName();
  const formatDate = useFormatDate();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // The name searched for lives in the page's history state, not its address: addresses end up in proxy logs,
  // bookmarks and histories (docs/access.md "Nothing personal in URLs"). A name arriving in an address (an old
  // link) is taken into the state and dropped from the address at once.
  const nameInAddress = params.get('q');
  const nameInState = (location.state as { q?: unknown } | null)?.q;
  const name = nameInAddress ?? (typeof nameInState === 'string' ? nameInState : '');
  useEffect(() => {
    if (nameInAddress === null) return;
    const rest = new URLSearchParams(params);
    rest.delete('q');
    const search = rest.toString();
    navigate({ search: search ? `?${search}` : '' }, { replace: true, state: { q: nameInAddress } });
  }, [nameInAddress, params, navigate]);
  const current = {
    ...Object.fromEntries(filterNames.map((n) => [n, params.get(n) ?? ''])),
    q: name,
  } as Filters;
  const [form, setForm] = useState<Filters>(current);
  const options = useFilterOptions().data;
  const searched = filterNames.some((n) => current[n] !== '');
  const withoutName = new URLSearchParams(params);
  withoutName.delete('q');
  const query = `${withoutName.toString()}\u0000${name}`;
  const results = useLoad(
    () =>
      searched
        ? searchRecords<List<RecordItem>>({ ...current, limit: 50 })
        : Promise.resolve({ items: [] } as List<RecordItem>),
    [query],
  );
  const [more, setMore] = useState<{ items: RecordItem[]; cursor?: string; forQuery: string } | null>(null);
  const extra = more?.forQuery === query ? more : null;
  const items = [...(results.data?.items ?? []), ...(extra?.items ?? [])];
  const nextCursor = extra ? extra.cursor : results.data?.nextCursor;

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const n of filterNames) if (n !== 'q' && form[n].trim()) next.set(n, form[n].trim());
    setParams(next, { state: { q: form.q.trim() } });
  }

  async function loadMore() {
    if (!nextCursor) return;
    const page = await searchRecords<List<RecordItem>>({
      ...current,
      limit: 50,
      cursor: nextCursor,
    });
    setMore({ items: [...(extra?.items ?? []), ...page.items], cursor: page.nextCursor, forQuery: query });
  }

  const set = (name: keyof Filters) => (e: { target: { value: string } }) =>
    setForm({ ...form, [name]: e.target.value });

  const placeOptions = (list: Place[] | undefined) =>
    (list ?? []).map((p) => (
      <option key={p.id} value={p.id}>
        {placeName(p)}
        {p.number ? ` (${p.number})` : ''}
      </option>
    ));

  return (
    <section>
      <h1 tabIndex={-1}>{t('Search')}</h1>
      <search>
        <form onSubmit={submit} className="form search-form">
          <label className="wide">
            {t('Name, in Arabic or Latin letters')}
            <input type="search" name="q" value={form.q} onChange={set('q')} dir="auto" autoComplete="off" />
          </label>
          <label>
            {t('Governorate')}
            <select name="governorate" value={form.governorate} onChange={set('governorate')}>
              <option value="">{t('Any')}</option>
              {placeOptions(options?.governorates)}
            </select>
          </label>
          <label>
            {t('Branch')}
            <select name="branch" value={form.branch} onChange={set('branch')}>
              <option value="">{t('Any')}</option>
              {placeOptions(options?.branches)}
            </select>
          </label>
          <label>
            {t('Source')}
            <select name="source" value={form.source} onChange={set('source')}>
              <option value="">{t('Any')}</option>
              {(options?.sources ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('Status')}
            <select name="status" value={form.status} onChange={set('status')}>
              <option value="">{t('Any')}</option>
              {caseStatuses.map(([value, label]) => (
                <option key={value} value={value}>
                  {t(label)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('Arrested from')}
            <input type="date" name="from" value={form.from} onChange={set('from')} />
          </label>
          <label>
            {t('Arrested until')}
            <input type="date" name="to" value={form.to} onChange={set('to')} />
          </label>
          <button type="submit">{t('Search')}</button>
        </form>
      </search>

      {results.loading && searched && <Loading />}
      <ErrorNote error={results.error} />
      {searched && !results.loading && !results.error && (
        <p role="status" className="muted">
          {items.length === 0
            ? t('No records found.')
            : t('Records shown: {{count}}', { count: items.length })}
        </p>
      )}
      <ol className="results">
        {items.map((r) => (
          <li key={r.id} className="result">
            <div className="result-head">
              {r.personId ? (
                <Link
                  to={`/persons/${r.personId}`}
                  dir="auto"
                  lang={r.script === 'arabic' ? 'ar' : undefined}
                >
                  {r.fullName || t('(no name)')}
                </Link>
              ) : (
                <Link to={`/records/${r.id}`} dir="auto">
                  {r.fullName || t('(no name)')}
                </Link>
              )}
              {typeof r.score === 'number' && (
                <span className="score" title={t('Match score')}>
                  {Math.round(r.score * 100)}%
                </span>
              )}
            </div>
            {typeof r.original?.fullName === 'string' && r.original.fullName !== r.fullName && (
              <p className="original" dir="auto">
                {t('As written in the source')}: {r.original.fullName}
              </p>
            )}
            <p className="muted result-meta">
              <Link to={`/records/${r.id}`}>{t('the record')}</Link>
              {r.source?.name && <span dir="auto">{r.source.name}</span>}
              {r.birthDate && (
                <span>
                  {t('Born')} {formatDate(r.birthDate)}
                </span>
              )}
              {r.arrestDate && (
                <span>
                  {t('Arrested')} {formatDate(r.arrestDate)}
                </span>
              )}
            </p>
            {r.reasons && r.reasons.length > 0 ? (
              <p className="why" data-reasons>
                <span className="visually-hidden">{t('Why it matched')}: </span>
                {r.reasons.map((reason) => {
                  const { key, values } = reasonSentence(reason);
                  const said = {
                    ...values,
                    ...(typeof values.part === 'string' ? { part: t(values.part) } : {}),
                    ...(typeof values.reason === 'string' ? { reason: t(values.reason) } : {}),
                  };
                  return (
                    <span key={reason.query} className="chip">
                      <bdi>{t(key, said)}</bdi>
                    </span>
                  );
                })}
              </p>
            ) : (
              r.why &&
              r.why.length > 0 && (
                <p className="why">
                  <span className="visually-hidden">{t('Why it matched')}: </span>
                  {r.why.map((w) => (
                    // Older servers send these reasons in English only: laid out left to right whatever the page.
                    <span key={w} className="chip" dir="ltr">
                      {w}
                    </span>
                  ))}
                </p>
              )
            )}
          </li>
        ))}
      </ol>
      {nextCursor && (
        <button type="button" onClick={() => void loadMore()}>
          {t('Show more')}
        </button>
      )}
    </section>
  );
}
