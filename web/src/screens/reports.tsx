import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError, api, type List, type PersonAnswer, type Place } from '../api.js';
import {
  BlurredThumbnail,
  ErrorNote,
  Field,
  Loading,
  useFormatDate,
  useLoad,
  usePlaceName,
  usePlaces,
} from '../components/common.js';
import { apiWord, fieldLabel, msg, purposes } from '../lib/index.js';
import { useSession } from '../session.js';
import { identificationStatus } from './person.js';

interface ReportRow {
  id: string;
  reference: string;
  status: string;
  recordId: string;
  language: string;
  channel: string;
  createdAt: string;
  assignedTo: string | null;
  governorateId: string | null;
  fullName: string | null;
  consent: Record<string, boolean>;
}

interface ReportView extends ReportRow {
  record: Record<string, unknown> & { id: string; original?: Record<string, string> };
  consentHistory: {
    id: string;
    purpose: string;
    granted: boolean;
    recordedAt: string;
    recordedBy: string | null;
  }[];
  notes: { id: string; body: string; createdAt: string; createdBy: string | null }[];
}

interface Candidate {
  recordId: string | null;
  personId: string | null;
  evidenceId: string | null;
  probability: number;
  createdAt: string;
}

export const reportStatuses = [
  ['received', msg('received')],
  ['under_review', msg('under review')],
  ['contact_liaison', msg('the family should contact a liaison')],
  ['closed', msg('closed')],
] as const;

function statusName(status: string): string {
  return reportStatuses.find(([s]) => s === status)?.[1] ?? status;
}

const views = [
  ['new', msg('New')],
  ['mine', msg('Assigned to me')],
  ['all', msg('All')],
] as const;

/** The liaisons' worklist: new reports, those assigned to me, by status and by governorate. */
export function FamilyReportsScreen() {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const placeName = usePlaceName();
  const places = usePlaces(true);
  const { session } = useSession();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') ?? 'new';
  const status = params.get('status') ?? '';
  const governorate = params.get('governorate') ?? '';
  const governorates = useLoad(
    () => api.get<List<Place>>('/api/governorates').catch(() => ({ items: [] })),
    [],
  );
  const [more, setMore] = useState<{ items: ReportRow[]; cursor?: string; key: string } | null>(null);
  const query = {
    ...(view === 'new' ? { status: 'received' } : status ? { status } : {}),
    ...(view === 'mine' ? { assigned: 'me' } : {}),
    ...(governorate ? { governorate } : {}),
    limit: 50,
  };
  const key = JSON.stringify(query);
  const first = useLoad(() => api.get<List<ReportRow>>('/api/reports', query), [key]);
  const extra = more?.key === key ? more : null;
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const cursor = extra ? extra.cursor : first.data?.nextCursor;

  const choose = (next: Record<string, string>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    setParams(p);
  };

  async function loadMore() {
    if (!cursor) return;
    const page = await api.get<List<ReportRow>>('/api/reports', { ...query, cursor });
    setMore({ items: [...(extra?.items ?? []), ...page.items], cursor: page.nextCursor, key });
  }

  return (
    <section>
      <h1 tabIndex={-1}>{t('Family reports')}</h1>
      <div className="tabs" role="tablist" aria-label={t('Which reports')}>
        {views.map(([v, label]) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            onClick={() => choose({ view: v, ...(v === 'new' ? { status: '' } : {}) })}
          >
            {t(label)}
          </button>
        ))}
      </div>
      <form className="form search-form" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('Status')}
          <select
            name="status"
            value={view === 'new' ? 'received' : status}
            disabled={view === 'new'}
            onChange={(e) => choose({ status: e.target.value })}
          >
            <option value="">{t('Any')}</option>
            {reportStatuses.map(([s, label]) => (
              <option key={s} value={s}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('Governorate')}
          <select
            name="governorate"
            value={governorate}
            onChange={(e) => choose({ governorate: e.target.value })}
          >
            <option value="">{t('Any')}</option>
            {(governorates.data?.items ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {placeName(g)}
              </option>
            ))}
          </select>
        </label>
      </form>
      {first.loading && !first.data && <Loading />}
      <ErrorNote error={first.error} />
      {first.data && (
        <p role="status" className="muted">
          {items.length === 0
            ? t('No reports here.')
            : t('Reports shown: {{count}}', { count: items.length })}
        </p>
      )}
      {items.length > 0 && (
        <div className="table-scroll">
          <table className="reports">
            <thead>
              <tr>
                <th scope="col">{t('Reference')}</th>
                <th scope="col">{t('Missing person')}</th>
                <th scope="col">{t('Status')}</th>
                <th scope="col">{t('Governorate')}</th>
                <th scope="col">{t('Filed')}</th>
                <th scope="col">{t('Assigned')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-report={r.id}>
                  <th scope="row">
                    <Link to={`/reports/${r.id}`} dir="ltr">
                      {r.reference}
                    </Link>
                  </th>
                  <td dir="auto">{r.fullName ?? t('(no name)')}</td>
                  <td>{t(statusName(r.status))}</td>
                  <td>{places(r.governorateId)}</td>
                  <td>{formatDate(r.createdAt)}</td>
                  <td>
                    {r.assignedTo === null
                      ? t('nobody')
                      : r.assignedTo === session?.user.id
                        ? t('me')
                        : t('another liaison')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" onClick={() => void loadMore()}>
          {t('Show more')}
        </button>
      )}
    </section>
  );
}

/** Sealed contact details: not fetched until a liaison asks, with a reason (audited server-side with it). */
function Contact({ reportId }: { reportId: string }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [contact, setContact] = useState<Record<string, string> | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const answer = await api.post<{ contact: Record<string, string> | null }>(
        `/api/reports/${encodeURIComponent(reportId)}/contact`,
        { reason },
      );
      setContact(answer.contact);
      setAsking(false);
      setReason('');
    } catch (err) {
      setError(err);
    }
  }
  if (contact !== undefined)
    return (
      <div className="contact" data-contact>
        {contact === null ? (
          <p className="muted">{t('The family left no contact details.')}</p>
        ) : (
          <dl>
            {Object.entries(contact).map(([k, v]) => (
              <Field key={k} label={t(fieldLabel(k))}>
                <bdi dir={k === 'phone' || k === 'email' ? 'ltr' : 'auto'}>{v}</bdi>
              </Field>
            ))}
          </dl>
        )}
        <p className="muted">
          {t('This reading is recorded with your reason.')}{' '}
          <button type="button" className="link-button" onClick={() => setContact(undefined)}>
            {t('Hide')}
          </button>
        </p>
      </div>
    );
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        {t('Show the contact details')}
      </button>
    );
  return (
    <form onSubmit={submit} className="form narrow">
      <p className="warning">
        {t('The contact details are sealed. Say why you need them; your reason is recorded.')}
      </p>
      <label>
        {t('Reason')}
        <textarea
          name="contactReason"
          required
          minLength={3}
          dir="auto"
          // biome-ignore lint/a11y/noAutofocus: the liaison just asked for the contact; the reason is what comes next.
          autoFocus
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <ErrorNote error={error} />
      <div className="buttons">
        <button type="submit">{t('Show')}</button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

/** What the tracing loop found for the report (GET /api/reports/:id/candidates, built by the tracing-loop work). */
function Candidates({ reportId }: { reportId: string }) {
  const { t } = useTranslation();
  const { data, error, loading } = useLoad(
    () => api.get<List<Candidate>>(`/api/reports/${encodeURIComponent(reportId)}/candidates`),
    [reportId],
  );
  // Until the tracing loop is installed, the route answers 404: say so, in place.
  if (error instanceof ApiError && error.status === 404)
    return (
      <p className="muted" data-candidates="pending">
        {t('Candidates will appear here once the tracing loop has compared this report with the archive.')}
      </p>
    );
  if (loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={error} />;
  if (data.items.length === 0)
    return (
      <p className="muted" data-candidates="none">
        {t('No candidates yet.')}
      </p>
    );
  return (
    <ul className="cards" data-candidates="listed">
      {data.items.map((c) => (
        <li key={`${c.recordId ?? ''}|${c.evidenceId ?? ''}|${c.createdAt}`} className="card">
          {c.evidenceId && (
            <Link to={`/evidence/${c.evidenceId}`}>
              <BlurredThumbnail evidenceId={c.evidenceId} />
            </Link>
          )}
          <div>
            <p>{t('Probability {{p}}%', { p: Math.round(c.probability * 100) })}</p>
            {c.recordId && <Link to={`/records/${c.recordId}`}>{t('Open the record')}</Link>}{' '}
            {c.personId && <Link to={`/persons/${c.personId}`}>{t('Open the person')}</Link>}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The identifications of the report's person, and the family-informed step for the confirmed ones. */
function FamilyInformed({ recordId }: { recordId: string }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const [error, setError] = useState<unknown>(null);
  const person = useLoad(async () => {
    const record = await api.get<{ personId?: string | null }>(
      `/api/records/${encodeURIComponent(recordId)}`,
    );
    return record.personId
      ? api.get<PersonAnswer>(`/api/persons/${encodeURIComponent(record.personId)}`)
      : null;
  }, [recordId]);
  if (person.loading && !person.data) return <Loading />;
  if (!person.data)
    return person.error ? (
      <ErrorNote error={person.error} />
    ) : (
      <p className="muted">{t('Not linked to a person yet.')}</p>
    );
  const ids = person.data.identifications;
  async function inform(id: string) {
    setError(null);
    try {
      await api.post(`/api/identifications/${id}/family-informed`, {});
      person.reload();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <div>
      <p>
        <Link to={`/persons/${person.data.id}`}>{t('Open the person')}</Link>
      </p>
      {ids.length === 0 ? (
        <p className="muted">{t('No evidence is linked to this person.')}</p>
      ) : (
        <ul className="plain-list">
          {ids.map((i) => (
            <li key={i.id}>
              {t(identificationStatus(i.status))}{' '}
              {i.status === 'confirmed' && can('identifications:inform') && (
                <button type="button" className="secondary" onClick={() => void inform(i.id)}>
                  {t('Mark that the family was told, in person')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

export function FamilyReportScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can, session } = useSession();
  const formatDate = useFormatDate();
  const places = usePlaces(true);
  // contact=omit: the sealed contact is opened only when the liaison asks, with a reason.
  const { data, error, loading, reload } = useLoad(
    () => api.get<ReportView>(`/api/reports/${encodeURIComponent(id)}`, { contact: 'omit' }),
    [id],
  );
  const [note, setNote] = useState('');
  const [status, setStatus] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  if (loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={error} />;
  const write = can('reports:write');
  const act = async (work: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await work();
      reload();
    } catch (err) {
      setActionError(err);
    }
  };
  const record = data.record;
  const filed = [
    'fullName',
    'motherName',
    'sex',
    'birthDate',
    'governorateId',
    'placeOfOrigin',
    'arrestDate',
    'branchId',
  ]
    .map((f) => [f, record?.[f]] as const)
    .filter(([, v]) => v !== null && v !== undefined && v !== '');

  return (
    <section>
      <h1 tabIndex={-1}>
        <bdi dir="ltr">{data.reference}</bdi> · {t(statusName(data.status))}
      </h1>
      <p className="muted">
        {t('Filed {{when}}', { when: formatDate(data.createdAt) })} ·{' '}
        {data.channel === 'public' ? t('by the family, online') : t('by a liaison, for the family')} ·{' '}
        {data.language === 'ar' ? 'العربية' : 'English'}
      </p>

      {write && (
        <div className="buttons">
          {data.assignedTo !== session?.user.id ? (
            <button
              type="button"
              onClick={() =>
                void act(() => api.post(`/api/reports/${id}/assign`, { userId: session?.user.id }))
              }
            >
              {t('Assign to me')}
            </button>
          ) : (
            <button
              type="button"
              className="secondary"
              onClick={() => void act(() => api.post(`/api/reports/${id}/assign`, { userId: null }))}
            >
              {t('Unassign')}
            </button>
          )}
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (status) void act(() => api.post(`/api/reports/${id}/status`, { status }));
            }}
          >
            <label>
              {t('Status')}
              <select
                name="reportStatus"
                value={status || data.status}
                onChange={(e) => setStatus(e.target.value)}
              >
                {reportStatuses.map(([s, label]) => (
                  <option key={s} value={s}>
                    {t(label)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={!status || status === data.status}>
              {t('Change the status')}
            </button>
          </form>
        </div>
      )}
      <ErrorNote error={actionError} />

      <h2>{t('The report as filed')}</h2>
      <dl data-filed>
        {filed.map(([f, v]) => (
          <Field key={f} label={t(fieldLabel(f))}>
            {/(governorate|branch)Id$/.test(f)
              ? places(String(v))
              : /Date$/.test(f)
                ? formatDate(String(v))
                : f === 'sex'
                  ? t(apiWord(String(v)))
                  : String(v)}
          </Field>
        ))}
      </dl>
      <p>
        <Link to={`/records/${record.id}`}>{t('Open the record')}</Link>
      </p>

      <h2>{t('Consent')}</h2>
      <div className="table-scroll">
        <table className="consent">
          <thead>
            <tr>
              <th scope="col">{t('Use')}</th>
              <th scope="col">{t('Consent now')}</th>
              {write && <th scope="col">{t('Change')}</th>}
            </tr>
          </thead>
          <tbody>
            {purposes.map(([p, label]) => {
              const granted = data.consent[p] === true;
              return (
                <tr key={p} data-purpose={p} data-granted={granted}>
                  <th scope="row">{t(label)}</th>
                  <td>{granted ? t('given') : t('not given')}</td>
                  {write && (
                    <td>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() =>
                          void act(() =>
                            api.post(`/api/reports/${id}/consent`, { purpose: p, granted: !granted }),
                          )
                        }
                      >
                        {granted ? t('Record a withdrawal') : t('Record consent')}
                        <span className="visually-hidden"> · {t(label)}</span>
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      {can('contacts:read') && (
        <>
          <h2>{t('Contact details')}</h2>
          <Contact reportId={data.id} />
        </>
      )}

      <h2>{t('Notes')}</h2>
      {data.notes.length === 0 ? (
        <p className="muted">{t('None recorded.')}</p>
      ) : (
        <ol className="timeline" data-notes>
          {data.notes.map((n) => (
            <li key={n.id}>
              <span className="when">{formatDate(n.createdAt)}</span>
              <span dir="auto">{n.body}</span>
            </li>
          ))}
        </ol>
      )}
      {write && (
        <form
          className="form narrow"
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              await api.post(`/api/reports/${id}/notes`, { body: note });
              setNote('');
            });
          }}
        >
          <label>
            {t('Add a note')}
            <textarea
              name="note"
              required
              dir="auto"
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          <button type="submit">{t('Save the note')}</button>
        </form>
      )}

      <h2>{t('Identifications and the family')}</h2>
      <FamilyInformed recordId={record.id} />

      <h2>{t('Candidates')}</h2>
      <Candidates reportId={data.id} />
    </section>
  );
}
