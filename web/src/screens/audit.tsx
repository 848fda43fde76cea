import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuditEntry, api, type List } from '../api.js';
import { ErrorNote, Loading, useFormatDate, useLoad } from '../components/common.js';

const filterNames = ['actor', 'action', 'subjectType', 'subjectId', 'since', 'until'] as const;
type Filters = Record<(typeof filterNames)[number], string>;
const empty = Object.fromEntries(filterNames.map((n) => [n, ''])) as Filters;

export function AuditScreen() {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const [form, setForm] = useState<Filters>(empty);
  const [filters, setFilters] = useState<Filters>(empty);
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const first = useLoad(async () => {
    const page = await api.get<List<AuditEntry>>('/api/audit', filters);
    setMore([]);
    setCursor(page.nextCursor);
    return page;
  }, [JSON.stringify(filters)]);
  const rows = [...(first.data?.items ?? []), ...more];

  function submit(e: FormEvent) {
    e.preventDefault();
    setFilters({ ...form });
  }

  async function loadMore() {
    if (!cursor) return;
    const page = await api.get<List<AuditEntry>>('/api/audit', { ...filters, cursor });
    setMore((m) => [...m, ...page.items]);
    setCursor(page.nextCursor);
  }

  const labels: Record<keyof Filters, string> = {
    actor: t('Who (user id)'),
    action: t('Action'),
    subjectType: t('Subject type'),
    subjectId: t('Subject id'),
    since: t('Since'),
    until: t('Until'),
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('Audit log')}</h1>
      <form onSubmit={submit} className="form search-form">
        {filterNames.map((n) => (
          <label key={n}>
            {labels[n]}
            <input
              name={n}
              type={n === 'since' || n === 'until' ? 'date' : 'text'}
              value={form[n]}
              onChange={(e) => setForm({ ...form, [n]: e.target.value })}
              dir="ltr"
            />
          </label>
        ))}
        <button type="submit">{t('Filter')}</button>
      </form>
      {first.loading && !first.data && <Loading />}
      <ErrorNote error={first.error} />
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('When')}</th>
              <th scope="col">{t('Who')}</th>
              <th scope="col">{t('Action')}</th>
              <th scope="col">{t('Subject')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{formatDate(r.at)}</td>
                <td dir="ltr">{r.actorId ? `${r.actorRole ?? ''} ${r.actorId}` : t('system')}</td>
                <td dir="ltr">{r.action}</td>
                <td dir="ltr">
                  {r.subjectType} {r.subjectId}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cursor && (
        <button type="button" onClick={() => void loadMore()}>
          {t('Show more')}
        </button>
      )}
    </section>
  );
}
