import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, type List, type RecordItem } from '../api.js';
import { ErrorNote, Field, Loading, useFormatDate, useLoad, usePlaceName } from '../components/common.js';
import { apiWord, asciiDigits, msg } from '../lib/index.js';
import { useSession } from '../session.js';
import { eventLabel } from './person.js';

interface Unit {
  id: string;
  nameEn: string;
  nameAr: string;
  number: number | null;
  kind: string;
  agency: string;
  governorateId: string | null;
  parentId: string | null;
  aliases?: string[];
}

interface UnitView extends Omit<Unit, 'aliases'> {
  aliases: { alias: string; createdAt: string | null; createdBy: string | null }[];
  ancestors: Unit[];
  children: Unit[];
  counts: { records: number; events: number } | null;
  records: RecordItem[];
  events: {
    id: string;
    type: string;
    dateStart: string | null;
    personId: string | null;
    place: string | null;
  }[];
  labels: { id: string; evidenceId: string; value: string; readFrom: string | null }[];
}

export const unitKinds = [
  ['security_branch', msg('Security branch')],
  ['prison', msg('Prison')],
  ['military_police', msg('Military police')],
  ['military_hospital', msg('Military hospital')],
  ['hospital', msg('Hospital')],
  ['directorate', msg('Directorate')],
  ['agency', msg('Agency')],
] as const;

function kindLabel(kind: string): string {
  return unitKinds.find(([k]) => k === kind)?.[1] ?? kind;
}

function UnitName({ unit }: { unit: Pick<Unit, 'nameEn' | 'nameAr' | 'number'> }) {
  const name = usePlaceName();
  return (
    <>
      {name(unit)}
      {unit.number !== null && <span className="muted"> ({unit.number})</span>}
    </>
  );
}

/** Units as a tree: agencies, what is under each, and units placed under none. */
function Tree({ units, parent }: { units: Unit[]; parent: string | null }) {
  const { t } = useTranslation();
  const here = units.filter((u) => (u.parentId ?? null) === parent);
  if (here.length === 0) return null;
  return (
    <ul className={parent ? 'tree' : 'tree tree-root'}>
      {here.map((u) => (
        <li key={u.id} data-unit={u.id}>
          <Link to={`/branches/${encodeURIComponent(u.id)}`}>
            <UnitName unit={u} />
          </Link>{' '}
          <span className="muted">· {t(kindLabel(u.kind))}</span>
          <Tree units={units} parent={u.id} />
        </li>
      ))}
    </ul>
  );
}

function AddUnit({ units, onAdded }: { units: Unit[]; onAdded: () => void }) {
  const { t } = useTranslation();
  const name = usePlaceName();
  const blank = { nameEn: '', nameAr: '', kind: 'security_branch', number: '', parentId: '' };
  const [form, setForm] = useState(blank);
  const [error, setError] = useState<unknown>(null);
  const [made, setMade] = useState<Unit | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const number = asciiDigits(form.number).trim();
      setMade(
        await api.post<Unit>('/api/units', {
          nameEn: form.nameEn,
          nameAr: form.nameAr,
          kind: form.kind,
          ...(number ? { number: Number(number) } : {}),
          ...(form.parentId ? { parentId: form.parentId } : {}),
        }),
      );
      setForm(blank);
      onAdded();
    } catch (err) {
      setError(err);
    }
  }
  const set = (k: keyof typeof blank) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });

  return (
    <form onSubmit={submit} className="form search-form" aria-labelledby="add-unit">
      <h2 id="add-unit" className="wide">
        {t('Add a unit')}
      </h2>
      <label>
        {t('Name in Arabic')}
        <input name="nameAr" required lang="ar" dir="rtl" value={form.nameAr} onChange={set('nameAr')} />
      </label>
      <label>
        {t('Name in English or Latin letters')}
        <input name="nameEn" required lang="en" dir="ltr" value={form.nameEn} onChange={set('nameEn')} />
      </label>
      <label>
        {t('Kind')}
        <select name="kind" value={form.kind} onChange={set('kind')}>
          {unitKinds.map(([k, label]) => (
            <option key={k} value={k}>
              {t(label)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('Number (if it has one)')}
        <input name="number" inputMode="numeric" dir="ltr" value={form.number} onChange={set('number')} />
      </label>
      <label>
        {t('Part of')}
        <select name="parentId" value={form.parentId} onChange={set('parentId')}>
          <option value="">{t('None')}</option>
          {units.map((u) => (
            <option key={u.id} value={u.id}>
              {name(u)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">{t('Add the unit')}</button>
      <div className="wide">
        <ErrorNote error={error} />
        {made && (
          <p role="status" className="ok">
            {t('Added:')} <Link to={`/branches/${made.id}`}>{name(made)}</Link>
          </p>
        )}
      </div>
    </form>
  );
}

export function BranchesScreen() {
  const { t } = useTranslation();
  const { can } = useSession();
  const { data, error, loading, reload } = useLoad(() => api.get<List<Unit>>('/api/units'), []);
  return (
    <section>
      <h1 tabIndex={-1}>{t('Branches and units')}</h1>
      <p className="muted">
        {t(
          'Security branches, prisons and hospitals, under the directorates and agencies they belong to. Every spelling added here is recognised in imports from then on.',
        )}
      </p>
      {can('places:write') && data && <AddUnit units={data.items} onAdded={reload} />}
      {loading && !data && <Loading />}
      <ErrorNote error={error} />
      {data && <Tree units={data.items} parent={null} />}
    </section>
  );
}

function AddAlias({ id, onAdded }: { id: string; onAdded: () => void }) {
  const { t } = useTranslation();
  const [alias, setAlias] = useState('');
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post(`/api/units/${encodeURIComponent(id)}/aliases`, { alias });
      setAlias('');
      onAdded();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form onSubmit={submit} className="inline-form">
      <label>
        {t('Another spelling (Arabic or Latin)')}
        <input name="alias" required dir="auto" value={alias} onChange={(e) => setAlias(e.target.value)} />
      </label>
      <button type="submit">{t('Add the spelling')}</button>
      <ErrorNote error={error} />
    </form>
  );
}

function SetParent({ unit, units, onDone }: { unit: UnitView; units: Unit[]; onDone: () => void }) {
  const { t } = useTranslation();
  const name = usePlaceName();
  const [parentId, setParentId] = useState(unit.parentId ?? '');
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post(`/api/units/${encodeURIComponent(unit.id)}/parent`, { parentId: parentId || null });
      onDone();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form onSubmit={submit} className="inline-form">
      <label>
        {t('Part of')}
        <select name="parentId" value={parentId} onChange={(e) => setParentId(e.target.value)}>
          <option value="">{t('None')}</option>
          {units
            .filter((u) => u.id !== unit.id)
            .map((u) => (
              <option key={u.id} value={u.id}>
                {name(u)}
              </option>
            ))}
        </select>
      </label>
      <button type="submit" disabled={(unit.parentId ?? '') === parentId}>
        {t('Change')}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

export function BranchScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can } = useSession();
  const name = usePlaceName();
  const formatDate = useFormatDate();
  const view = useLoad(() => api.get<UnitView>(`/api/units/${encodeURIComponent(id)}`), [id]);
  const all = useLoad(() => api.get<List<Unit>>('/api/units'), []);
  const data = view.data;
  if (view.loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={view.error} />;
  const write = can('places:write');
  return (
    <section>
      <nav aria-label={t('Part of')} className="crumbs">
        <Link to="/branches">{t('Branches and units')}</Link>
        {[...data.ancestors].reverse().map((a) => (
          <span key={a.id}>
            {' › '}
            <Link to={`/branches/${a.id}`}>{name(a)}</Link>
          </span>
        ))}
      </nav>
      <h1 tabIndex={-1}>
        <UnitName unit={data} />
      </h1>
      <dl>
        <Field label={t('Name in Arabic')}>
          <span lang="ar">{data.nameAr}</span>
        </Field>
        <Field label={t('Name in English or Latin letters')}>
          <span lang="en">{data.nameEn}</span>
        </Field>
        <Field label={t('Kind')}>{t(kindLabel(data.kind))}</Field>
      </dl>
      {write && all.data && <SetParent unit={data} units={all.data.items} onDone={view.reload} />}

      <h2>{t('Spellings')}</h2>
      <ul className="aliases">
        {data.aliases.map((a) => (
          <li key={a.alias}>
            <bdi dir="auto">{a.alias}</bdi>
            <span className="muted">
              {' '}
              ·{' '}
              {a.createdAt ? t('added {{when}}', { when: formatDate(a.createdAt) }) : t('from the gazetteer')}
            </span>
          </li>
        ))}
      </ul>
      {write && <AddAlias id={data.id} onAdded={view.reload} />}

      {data.children.length > 0 && (
        <>
          <h2>{t('Units under it')}</h2>
          <ul>
            {data.children.map((c) => (
              <li key={c.id}>
                <Link to={`/branches/${c.id}`}>
                  <UnitName unit={c} />
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}

      {data.counts && (
        <>
          <h2>{t('Records that name it')}</h2>
          <p className="muted">
            {t('{{records}} records, {{events}} events', {
              records: data.counts.records,
              events: data.counts.events,
            })}
          </p>
          <ul className="plain-list">
            {data.records.map((r) => (
              <li key={r.id}>
                <Link to={`/records/${r.id}`} dir="auto">
                  {r.fullName || t('(no name)')}
                </Link>
                <span className="muted">
                  {' · '}
                  <bdi>{r.source?.name}</bdi>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {data.events.length > 0 && (
        <>
          <h2>{t('Events there')}</h2>
          <ul className="plain-list">
            {data.events.map((e) => (
              <li key={e.id}>
                {e.personId ? (
                  <Link to={`/persons/${e.personId}`}>{t(eventLabel(e.type))}</Link>
                ) : (
                  t(eventLabel(e.type))
                )}{' '}
                <span className="muted">{formatDate(e.dateStart) || t('date unknown')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {can('evidence:read') && data.number !== null && (
        <>
          <h2>{t('Evidence labels with its number')}</h2>
          {data.labels.length === 0 ? (
            <p className="muted">{t('None recorded.')}</p>
          ) : (
            <ul className="plain-list">
              {data.labels.map((l) => (
                <li key={l.id}>
                  <Link to={`/evidence/${l.evidenceId}`}>
                    <bdi dir="auto">{l.value}</bdi>
                  </Link>{' '}
                  <span className="muted">· {t(apiWord(l.readFrom))}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
