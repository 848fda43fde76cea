import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  ApiError,
  api,
  type List,
  type PersonAnswer,
  type RecordItem,
  type ReviewPair,
  searchRecords,
} from '../api.js';
import { ErrorNote, Loading } from '../components/common.js';
import { WaterfallList } from '../components/waterfall-list.js';

interface Preview {
  explanation: ReviewPair['explanation'];
}

function usePreview() {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = async (a: string, b: string) => {
    setError(null);
    setPreview(null);
    try {
      setPreview(await api.get<Preview>('/api/persons/explain', { a, b }));
    } catch (err) {
      setError(err);
    }
  };
  return { preview, error, load, clear: () => setPreview(null) };
}

/**
 * The relatives guard as the API applies it: a link between persons recorded as relatives is refused (409) unless
 * forced with a note. Says so, and offers to force.
 */
function isRelativesRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError && error.code === 'conflict' && /recorded as/.test(error.problem.detail ?? '')
  );
}

function RelativesNote({
  error,
  force,
  setForce,
}: {
  error: unknown;
  force: boolean;
  setForce: (v: boolean) => void;
}) {
  const { t } = useTranslation();
  if (!isRelativesRefusal(error)) return <ErrorNote error={error} />;
  return (
    <div className="error-note" role="alert" data-relatives-guard>
      <p>
        {t(
          'These persons are recorded as relatives, so they are different people: the link was refused. If you are sure the relation is wrong, tick the box and save again; your reason is kept with the link.',
        )}
      </p>
      <label className="check">
        <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
        {t('Link anyway, with my reason')}
      </label>
    </div>
  );
}

/** Finds a record by name in place and links it to this person, after a preview of how it compares. */
export function LinkRecord({ person, onDone }: { person: PersonAnswer; onDone: () => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<RecordItem[] | null>(null);
  const [chosen, setChosen] = useState<RecordItem | null>(null);
  const [reason, setReason] = useState('');
  const [force, setForce] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const preview = usePreview();
  const mine = new Set(person.records.map((r) => r.id));
  const anchor = person.records[0]?.id;

  async function search(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const found = await searchRecords<List<RecordItem>>({ q, limit: 10 });
      setHits(found.items.filter((r) => !mine.has(r.id)));
    } catch (err) {
      setError(err);
    }
  }

  async function choose(r: RecordItem) {
    setChosen(r);
    setForce(false);
    setError(null);
    if (anchor) await preview.load(anchor, r.id);
  }

  async function link(e: FormEvent) {
    e.preventDefault();
    if (!chosen) return;
    setError(null);
    try {
      await api.post(`/api/persons/${encodeURIComponent(person.id)}/links`, {
        recordId: chosen.id,
        note: reason,
        ...(force ? { force: true } : {}),
      });
      setChosen(null);
      setHits(null);
      setReason('');
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section className="person-tool" aria-labelledby="link-title">
      <h3 id="link-title">{t('Link a record to this person')}</h3>
      <search>
        <form onSubmit={search} className="inline-form">
          <label>
            {t('Name, in Arabic or Latin letters')}
            <input
              name="linkQuery"
              type="search"
              dir="auto"
              value={q}
              onChange={(e) => setQ(e.target.value)}
            />
          </label>
          <button type="submit">{t('Search')}</button>
        </form>
      </search>
      {hits && hits.length === 0 && <p className="muted">{t('No records found.')}</p>}
      {hits && hits.length > 0 && (
        <ul className="plain-list" data-link-hits>
          {hits.map((r) => (
            <li key={r.id}>
              <bdi>{r.fullName || t('(no name)')}</bdi>
              {r.source?.name && (
                <span className="muted">
                  {' · '}
                  <bdi>{r.source.name}</bdi>
                </span>
              )}{' '}
              <button type="button" className="secondary" onClick={() => void choose(r)}>
                {t('Compare')}
                <span className="visually-hidden"> {r.fullName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen && (
        <form onSubmit={link} className="form narrow" data-link-form>
          <p>
            {t('Compared with this person’s first record:')} <bdi>{chosen.fullName}</bdi>
          </p>
          {preview.preview?.explanation ? (
            <WaterfallList explanation={preview.preview.explanation} />
          ) : preview.error ? (
            <ErrorNote error={preview.error} />
          ) : (
            <Loading />
          )}
          <label>
            {t('Why they are the same person')}
            <textarea
              name="linkReason"
              required
              dir="auto"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
          <RelativesNote error={error} force={force} setForce={setForce} />
          <div className="buttons">
            <button type="submit" disabled={reason.trim() === ''}>
              {t('Link the record')}
            </button>
            <button type="button" className="secondary" onClick={() => setChosen(null)}>
              {t('Cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** Closes a link with a reason; the record goes back to the person it was moved from, if any. */
export function UnlinkRecord({
  person,
  record,
  onDone,
}: {
  person: PersonAnswer;
  record: RecordItem;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  if (!record.link) return null;
  const linkId = record.link.id;
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post(
        `/api/persons/${encodeURIComponent(person.id)}/links/${encodeURIComponent(linkId)}/undo`,
        { reason },
      );
      onDone();
    } catch (err) {
      setError(err);
    }
  }
  if (!asking)
    return (
      <button type="button" className="secondary" onClick={() => setAsking(true)}>
        {t('Unlink')}
        <span className="visually-hidden"> {record.fullName}</span>
      </button>
    );
  return (
    <form onSubmit={submit} className="form" data-unlink-form>
      <label>
        {t('Why this record is not this person')}
        <textarea
          name="unlinkReason"
          required
          dir="auto"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <ErrorNote error={error} />
      <div className="buttons">
        <button type="submit" disabled={reason.trim() === ''}>
          {t('Unlink the record')}
        </button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

/** Merges another person into this one: each of its records is linked here, with the reason (guarded as links are). */
export function MergePerson({ person, onDone }: { person: PersonAnswer; onDone: () => void }) {
  const { t } = useTranslation();
  const [otherId, setOtherId] = useState('');
  const [other, setOther] = useState<PersonAnswer | null>(null);
  const [reason, setReason] = useState('');
  const [force, setForce] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const preview = usePreview();

  async function find(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setOther(null);
    try {
      const id = otherId.trim().replace(/^.*\/persons\//, '');
      const found = await api.get<PersonAnswer>(`/api/persons/${encodeURIComponent(id)}`);
      if (found.id === person.id) throw new ApiError(400, { code: 'bad_request' });
      setOther(found);
      const a = person.records[0]?.id;
      const b = found.records[0]?.id;
      if (a && b) await preview.load(a, b);
    } catch (err) {
      setError(err);
    }
  }

  async function merge(e: FormEvent) {
    e.preventDefault();
    if (!other) return;
    setError(null);
    try {
      for (const r of other.records) {
        await api.post(`/api/persons/${encodeURIComponent(person.id)}/links`, {
          recordId: r.id,
          note: `merged from person ${other.id}: ${reason}`,
          ...(force ? { force: true } : {}),
        });
      }
      setOther(null);
      setReason('');
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section className="person-tool" aria-labelledby="merge-title">
      <h3 id="merge-title">{t('Merge another person into this one')}</h3>
      <form onSubmit={find} className="inline-form">
        <label>
          {t('The other person’s address or id')}
          <input name="otherPerson" dir="ltr" value={otherId} onChange={(e) => setOtherId(e.target.value)} />
        </label>
        <button type="submit">{t('Compare')}</button>
      </form>
      {!other && <ErrorNote error={error} />}
      {other && (
        <form onSubmit={merge} className="form narrow" data-merge-form>
          <p>
            <Link to={`/persons/${other.id}`}>
              <bdi>{other.displayName}</bdi>
            </Link>{' '}
            · {t('{{count}} records move here', { count: other.records.length })}
          </p>
          {preview.preview?.explanation && <WaterfallList explanation={preview.preview.explanation} />}
          <label>
            {t('Why they are the same person')}
            <textarea
              name="mergeReason"
              required
              dir="auto"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
          <RelativesNote error={error} force={force} setForce={setForce} />
          <button type="submit" disabled={reason.trim() === ''}>
            {t('Merge')}
          </button>
        </form>
      )}
    </section>
  );
}

/** Splits records off into a new person, with the reason; the preview shows how they compare with the rest. */
export function SplitPerson({ person, onDone }: { person: PersonAnswer; onDone: (newId: string) => void }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const preview = usePreview();
  if (person.records.length < 2) return null;
  const toggle = async (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
    const moving = [...next][0];
    const staying = person.records.find((r) => !next.has(r.id))?.id;
    if (moving && staying) await preview.load(staying, moving);
    else preview.clear();
  };
  const all = chosen.size === person.records.length;
  async function split(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const made = await api.post<{ id: string }>('/api/persons', {
        recordIds: [...chosen],
        note: `split from person ${person.id}: ${reason}`,
      });
      setChosen(new Set());
      setReason('');
      onDone(made.id);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section className="person-tool" aria-labelledby="split-title">
      <h3 id="split-title">{t('Split records off into a new person')}</h3>
      <form onSubmit={split} className="form narrow" data-split-form>
        <fieldset>
          <legend>{t('Records that are someone else')}</legend>
          {person.records.map((r) => (
            <label key={r.id} className="check">
              <input type="checkbox" checked={chosen.has(r.id)} onChange={() => void toggle(r.id)} />
              <bdi>{r.fullName || t('(no name)')}</bdi>
              <span className="muted">
                {' · '}
                <bdi>{r.source?.name}</bdi>
              </span>
            </label>
          ))}
        </fieldset>
        {preview.preview?.explanation && chosen.size > 0 && !all && (
          <WaterfallList explanation={preview.preview.explanation} />
        )}
        {all && <p className="warning">{t('Leave at least one record with this person.')}</p>}
        <label>
          {t('Why they are not the same person')}
          <textarea
            name="splitReason"
            required
            dir="auto"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
        <ErrorNote error={error} />
        <button type="submit" disabled={chosen.size === 0 || all || reason.trim() === ''}>
          {t('Split')}
        </button>
      </form>
    </section>
  );
}
