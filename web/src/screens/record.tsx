import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, api, type List, type Place, type RecordItem } from '../api.js';
import { ErrorNote, Field, Loading, useFormatDate, useLoad, usePlaces } from '../components/common.js';
import { apiWord, asciiDigits, fieldLabel, msg, problemFields } from '../lib/index.js';
import { useSession } from '../session.js';
import { eventLabel } from './person.js';

interface RecordPage extends RecordItem {
  nameNormalized?: string | null;
  externalId?: string | null;
  createdAt?: string;
  createdBy?: string | null;
  assertions: {
    id: string;
    kind: string;
    statement: string | null;
    assertedAt: string;
    assertedBy: string | null;
  }[];
  events: {
    id: string;
    type: string;
    dateStart: string | null;
    place: string | null;
    branchId: string | null;
  }[];
  links: {
    id: string;
    personId: string;
    basis: string;
    linkedAt: string;
    linkedBy: string | null;
    note: string | null;
    unlinkedAt: string | null;
    unlinkReason: string | null;
  }[];
}

export const recordKindNames = [
  ['registry_line', msg('Line of a registry or list')],
  ['family_report', msg('Family report')],
  ['death_notice', msg('Death notice')],
  ['diaspora_list', msg('Diaspora list')],
  ['evidence_card', msg('Evidence card')],
  ['other', msg('Other')],
] as const;

const claimKinds = [
  'information_sought',
  'believed_alive',
  'believed_missing',
  'believed_dead',
  'seen_in_detention',
  'death_reported_by_civil_registry',
  'death_certificate_found',
  'family_recognition_in_photo',
  'identified_by_dna',
] as const;

/** The normalised fields, in reading order (what matching and search use). */
const storedFields = [
  'fullName',
  'firstName',
  'fatherName',
  'grandfatherName',
  'familyName',
  'motherName',
  'sex',
  'birthDate',
  'birthYear',
  'governorateId',
  'placeOfOrigin',
  'arrestDate',
  'branchId',
  'detaineeNumber',
  'deathDate',
] as const;

function AddClaim({ recordId, onAdded }: { recordId: string; onAdded: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ kind: 'seen_in_detention', statement: '', assertedAt: '' });
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post(`/api/records/${encodeURIComponent(recordId)}/assertions`, {
        kind: form.kind,
        ...(form.statement.trim() ? { statement: form.statement.trim() } : {}),
        ...(form.assertedAt ? { assertedAt: asciiDigits(form.assertedAt) } : {}),
      });
      setForm({ ...form, statement: '', assertedAt: '' });
      onAdded();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form onSubmit={submit} className="form search-form" aria-labelledby="add-claim">
      <h3 id="add-claim" className="wide">
        {t('Add a claim')}
      </h3>
      <label>
        {t('What the source says')}
        <select name="kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value })}>
          {claimKinds.map((k) => (
            <option key={k} value={k}>
              {t(apiWord(k))}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('In its words')}
        <input
          name="statement"
          dir="auto"
          value={form.statement}
          onChange={(e) => setForm({ ...form, statement: e.target.value })}
        />
      </label>
      <label>
        {t('Said on')}
        <input
          name="assertedAt"
          type="date"
          value={form.assertedAt}
          onChange={(e) => setForm({ ...form, assertedAt: e.target.value })}
        />
      </label>
      <button type="submit">{t('Add the claim')}</button>
      <div className="wide">
        <ErrorNote error={error} />
      </div>
    </form>
  );
}

export function RecordScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can } = useSession();
  const formatDate = useFormatDate();
  const placeName = usePlaces(can('places:read'));
  const { data, error, loading, reload } = useLoad(
    () => api.get<RecordPage>(`/api/records/${encodeURIComponent(id)}`),
    [id],
  );
  if (loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={error} />;
  const original = Object.entries(data.original ?? {});
  const active = data.links.find((l) => !l.unlinkedAt);
  const shown = (f: string, v: unknown) => {
    const value = String(v);
    if (/(governorate|branch)Id$/.test(f)) {
      return f === 'branchId' ? (
        <Link to={`/branches/${encodeURIComponent(value)}`}>{placeName(value)}</Link>
      ) : (
        placeName(value)
      );
    }
    return /Date$/.test(f) ? formatDate(value) : value;
  };

  return (
    <section>
      <h1 tabIndex={-1} dir="auto">
        {data.fullName || t('(no name)')}
      </h1>
      <p className="muted">
        <bdi>{data.source?.name ?? t('unknown')}</bdi>
        {data.kind ? ` · ${t(apiWord(data.kind))}` : ''}
        {data.externalId && (
          <>
            {' · '}
            {t('its id in the source')} <bdi dir="ltr">{data.externalId}</bdi>
          </>
        )}
      </p>
      <p className="muted">
        {t('Records are never edited. A correction is a new claim, or a new record that replaces this one.')}
      </p>

      <div className="side-by-side">
        <article className="record-card" aria-labelledby="as-written">
          <h2 id="as-written">{t('As written in the source')}</h2>
          <dl data-original>
            {original.map(([k, v]) => (
              <Field key={k} label={t(fieldLabel(k))}>
                {String(v)}
              </Field>
            ))}
          </dl>
        </article>
        <article className="record-card" aria-labelledby="normalised">
          <h2 id="normalised">{t('As athar reads it')}</h2>
          <dl data-normalised>
            {storedFields.map((f) => {
              const v = data[f];
              if (v === null || v === undefined || v === '') return null;
              return (
                <Field key={f} label={t(fieldLabel(f))}>
                  {shown(f, v)}
                </Field>
              );
            })}
            {data.nameNormalized && (
              <Field label={t('Matching form of the name')}>
                <bdi>{data.nameNormalized}</bdi>
              </Field>
            )}
          </dl>
        </article>
      </div>

      <h2>{t('Person')}</h2>
      {active ? (
        <p data-link={active.basis}>
          <Link to={`/persons/${active.personId}`}>{t('Open the person')}</Link>
          {' · '}
          {t('linked {{basis}} on {{when}}', {
            basis: t(apiWord(active.basis)),
            when: formatDate(active.linkedAt),
          })}
          {active.note && (
            <span className="muted" dir="auto">
              {' · '}
              {active.note}
            </span>
          )}
        </p>
      ) : (
        <p className="muted">{t('Not linked to a person yet.')}</p>
      )}
      {data.links.some((l) => l.unlinkedAt) && (
        <details>
          <summary>{t('Earlier links')}</summary>
          <ul className="plain-list">
            {data.links
              .filter((l) => l.unlinkedAt)
              .map((l) => (
                <li key={l.id}>
                  <Link to={`/persons/${l.personId}`}>{t('person')}</Link> · {t(apiWord(l.basis))} ·{' '}
                  {formatDate(l.linkedAt)} – {formatDate(l.unlinkedAt)}
                  {l.unlinkReason && (
                    <span className="muted" dir="auto">
                      {' · '}
                      {l.unlinkReason}
                    </span>
                  )}
                </li>
              ))}
          </ul>
        </details>
      )}

      <h2>{t('Claims')}</h2>
      {data.assertions.length === 0 ? (
        <p className="muted">{t('None recorded.')}</p>
      ) : (
        <ul className="plain-list" data-claims>
          {data.assertions.map((a) => (
            <li key={a.id}>
              {t(apiWord(a.kind))} · {formatDate(a.assertedAt)}
              {a.statement && (
                <span dir="auto" className="muted">
                  {' · '}
                  {a.statement}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {can('records:write') && <AddClaim recordId={data.id} onAdded={reload} />}

      <h2>{t('Events')}</h2>
      {data.events.length === 0 ? (
        <p className="muted">{t('No events recorded.')}</p>
      ) : (
        <ul className="plain-list">
          {data.events.map((e) => (
            <li key={e.id}>
              {t(eventLabel(e.type))} · {formatDate(e.dateStart) || t('date unknown')}
              {e.branchId && <> · {placeName(e.branchId)}</>}
              {e.place && <bdi> · {e.place}</bdi>}
            </li>
          ))}
        </ul>
      )}

      {can('records:write') && (
        <p>
          <Link to={`/records/new?supersedes=${encodeURIComponent(data.id)}`}>
            {t('Enter a corrected record that replaces this one')}
          </Link>
        </p>
      )}
    </section>
  );
}

/** The record fields of the entry form, as the API names them, in the order a form is filled in. */
const entryFields = [
  ['fullName', 'text'],
  ['firstName', 'text'],
  ['fatherName', 'text'],
  ['grandfatherName', 'text'],
  ['familyName', 'text'],
  ['motherName', 'text'],
  ['sex', 'sex'],
  ['birthDate', 'date'],
  ['governorate', 'governorate'],
  ['placeOfOrigin', 'text'],
  ['arrestDate', 'date'],
  ['arrestingBranch', 'branch'],
  ['detaineeNumber', 'code'],
  ['deathDate', 'date'],
  ['notes', 'text'],
] as const;

const originalColumn: Record<string, string> = {
  fullName: 'full_name',
  firstName: 'first_name',
  fatherName: 'father_name',
  grandfatherName: 'grandfather_name',
  familyName: 'family_name',
  motherName: 'mother_name',
  sex: 'sex',
  birthDate: 'birth_date',
  governorate: 'governorate',
  placeOfOrigin: 'place_of_origin',
  arrestDate: 'arrest_date',
  arrestingBranch: 'arresting_branch',
  detaineeNumber: 'detainee_number',
  deathDate: 'death_date',
  notes: 'notes',
};

/**
 * A record entered by hand, as its source gives it (any script; dates as written: 2013, 2013-05, 21/05/2013). The
 * server validates each field; its problems are shown beside the field they name. With `?supersedes=<id>` the form
 * starts from that record and the new one is linked where it was, with the reason.
 */
export function NewRecordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const supersedes = params.get('supersedes');
  const [form, setForm] = useState<Record<string, string>>({ kind: 'registry_line', sourceId: '' });
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const options = useLoad(async () => {
    const [sources, governorates, units] = await Promise.all([
      api.get<List<{ id: string; name: string }>>('/api/sources'),
      api.get<List<Place>>('/api/governorates').catch(() => ({ items: [] as Place[] })),
      api.get<List<Place>>('/api/units').catch(() => ({ items: [] as Place[] })),
    ]);
    return { sources: sources.items, governorates: governorates.items, units: units.items };
  }, []);
  const old = useLoad(async () => {
    if (!supersedes) return null;
    const page = await api.get<RecordPage>(`/api/records/${encodeURIComponent(supersedes)}`);
    const original = (page.original ?? {}) as Record<string, string>;
    const start: Record<string, string> = {
      kind: page.kind ?? 'registry_line',
      sourceId: page.source?.id ?? '',
    };
    for (const [field, column] of Object.entries(originalColumn))
      if (original[column]) start[field] = String(original[column]);
    setForm(start);
    return page;
  }, [supersedes]);

  const fieldErrors = new Map<string, string>();
  if (error instanceof ApiError) {
    const paths = problemFields(error.problem);
    (error.problem.errors ?? []).forEach((e, i) => {
      const field = (paths[i] ?? '').split('.').pop() ?? '';
      if (field) fieldErrors.set(field, e.message);
    });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const body: Record<string, string> = {};
      for (const [k, v] of Object.entries(form))
        if (v.trim()) body[k] = /Date$|Number$/.test(k) ? asciiDigits(v.trim()) : v.trim();
      const made = await api.post<{ id: string }>('/api/records', body);
      const prior = old.data;
      if (prior) {
        const note = `supersedes record ${prior.id}: ${reason.trim()}`;
        const active = prior.links.find((l) => !l.unlinkedAt);
        if (active) await api.post(`/api/persons/${active.personId}/links`, { recordId: made.id, note });
        else await api.post('/api/persons', { recordIds: [prior.id, made.id], note });
      }
      navigate(`/records/${made.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const set = (k: string) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const invalid = (k: string) =>
    fieldErrors.has(k) ? { 'aria-invalid': true as const, 'aria-describedby': `${k}-error` } : {};
  const problem = (k: string) =>
    fieldErrors.has(k) ? (
      <span id={`${k}-error`} className="field-error" dir="ltr">
        {fieldErrors.get(k)}
      </span>
    ) : null;

  return (
    <section>
      <h1 tabIndex={-1}>{supersedes ? t('Enter a corrected record') : t('Enter a record')}</h1>
      <p className="muted">
        {t(
          'Write each field as the source gives it, in its own script. Dates may be a year, a month or a day (2013, 2013-05, 21/05/2013).',
        )}
      </p>
      {old.data && (
        <p className="warning">
          {t('This record will replace')}{' '}
          <Link to={`/records/${old.data.id}`} dir="auto">
            {old.data.fullName || t('(no name)')}
          </Link>
          {'. '}
          {t('The old record stays as it was; the new one is linked where it was, with your reason.')}
        </p>
      )}
      <form onSubmit={submit} className="form search-form" noValidate>
        <label>
          {t('Source')}
          <select
            name="sourceId"
            required
            value={form.sourceId ?? ''}
            onChange={set('sourceId')}
            {...invalid('sourceId')}
          >
            <option value="">{t('Choose the source')}</option>
            {(options.data?.sources ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {problem('sourceId')}
        </label>
        <label>
          {t('Kind of record')}
          <select name="kind" value={form.kind ?? ''} onChange={set('kind')}>
            {recordKindNames.map(([k, label]) => (
              <option key={k} value={k}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
        {entryFields.map(([name, type]) => (
          // biome-ignore lint/a11y/noLabelWithoutControl: each branch below puts its input or select inside the label.
          <label key={name} className={name === 'notes' || name === 'fullName' ? 'wide' : undefined}>
            {t(fieldLabel(name === 'arrestingBranch' ? 'arresting_branch' : name))}
            {type === 'sex' ? (
              <select name={name} value={form[name] ?? ''} onChange={set(name)} {...invalid(name)}>
                <option value="">{t('not stated')}</option>
                <option value="m">{t('male')}</option>
                <option value="f">{t('female')}</option>
              </select>
            ) : (
              <input
                name={name}
                dir={type === 'date' || type === 'code' ? 'ltr' : 'auto'}
                inputMode={type === 'date' || type === 'code' ? 'numeric' : undefined}
                placeholder={type === 'date' ? '2013-05-21' : undefined}
                list={
                  type === 'governorate' ? 'governorate-names' : type === 'branch' ? 'unit-names' : undefined
                }
                value={form[name] ?? ''}
                onChange={set(name)}
                {...invalid(name)}
              />
            )}
            {problem(name)}
          </label>
        ))}
        <datalist id="governorate-names">
          {(options.data?.governorates ?? [])
            .flatMap((g) => [g.nameAr, g.nameEn])
            .map((n) => (
              <option key={n} value={n} />
            ))}
        </datalist>
        <datalist id="unit-names">
          {(options.data?.units ?? [])
            .flatMap((u) => [u.nameAr, u.nameEn])
            .map((n) => (
              <option key={n} value={n} />
            ))}
        </datalist>
        {supersedes && (
          <label className="wide">
            {t('Why this record replaces the old one')}
            <textarea
              name="reason"
              required
              dir="auto"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
        )}
        <div className="wide">
          <ErrorNote error={error} />
        </div>
        <button type="submit" disabled={busy || (supersedes !== null && reason.trim() === '')}>
          {t('Save the record')}
        </button>
      </form>
    </section>
  );
}
