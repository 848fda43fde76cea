import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, type Identification, type List } from '../api.js';
import { BlurredThumbnail, ErrorNote, Loading, useFormatDate, useLoad } from '../components/common.js';
import { msg } from '../lib/index.js';
import { useSession } from '../session.js';
import { identificationStatus } from './person.js';

const tabs = [
  ['proposed', msg('Proposed')],
  ['confirmed', msg('Confirmed')],
  ['family_informed', msg('Family informed')],
] as const;

function ProposeForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [evidenceId, setEvidenceId] = useState(params.get('evidence') ?? '');
  const [personId, setPersonId] = useState(params.get('person') ?? '');
  const [basis, setBasis] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/api/identifications', {
        evidenceId: evidenceId.trim(),
        personId: personId.trim(),
        basis,
      });
      setSent(true);
      setBasis('');
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={submit} className="form">
      <h2>{t('Propose an identification')}</h2>
      <label>
        {t('Evidence item id')}
        <input
          name="evidenceId"
          required
          value={evidenceId}
          onChange={(e) => setEvidenceId(e.target.value)}
          dir="ltr"
        />
      </label>
      <label>
        {t('Person id')}
        <input
          name="personId"
          required
          value={personId}
          onChange={(e) => setPersonId(e.target.value)}
          dir="ltr"
        />
      </label>
      <label>
        {t('Basis: what shows it is this person')}
        <textarea name="basis" required value={basis} onChange={(e) => setBasis(e.target.value)} dir="auto" />
      </label>
      <ErrorNote error={error} />
      {sent && <p role="status">{t('Proposed. A second reviewer must confirm it.')}</p>}
      <button type="submit">{t('Propose')}</button>
    </form>
  );
}

export function IdentificationsScreen() {
  const { t } = useTranslation();
  const { can, session } = useSession();
  const formatDate = useFormatDate();
  const [status, setStatus] = useState<string>('proposed');
  const [actionError, setActionError] = useState<unknown>(null);
  const list = useLoad(() => api.get<List<Identification>>('/api/identifications', { status }), [status]);

  // Two different reviewers confirm, neither of them the proposer (the server enforces it; the button follows).
  const me = session?.user.id;
  const mayConfirm = (i: Identification) =>
    i.proposedBy !== me && !(i.confirmations ?? []).some((c) => c.by === me);

  async function act(id: string, action: 'confirm' | 'family-informed') {
    setActionError(null);
    try {
      await api.post(`/api/identifications/${id}/${action}`, {});
      list.reload();
    } catch (err) {
      setActionError(err);
    }
  }

  return (
    <section>
      <h1 tabIndex={-1}>{t('Identifications')}</h1>
      <p className="muted">
        {t(
          'An identification is proposed, then confirmed by a second reviewer, then a liaison tells the family in person.',
        )}
      </p>
      <div role="tablist" aria-label={t('Status')} className="tabs">
        {tabs.map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={status === value}
            onClick={() => setStatus(value)}
          >
            {t(label)}
          </button>
        ))}
      </div>
      {list.loading && !list.data && <Loading />}
      <ErrorNote error={list.error ?? actionError} />
      <div role="tabpanel">
        <ul className="cards">
          {(list.data?.items ?? []).map((i) => (
            <li key={i.id} className="card">
              <Link to={`/evidence/${i.evidenceId}`}>
                <BlurredThumbnail evidenceId={i.evidenceId} />
              </Link>
              <div>
                <p>
                  <Link to={`/persons/${i.personId}`}>{t('Open the person')}</Link> ·{' '}
                  {t(identificationStatus(i.status))}
                </p>
                {i.basis && (
                  <p dir="auto" className="muted">
                    {i.basis}
                  </p>
                )}
                <p className="muted">{formatDate(i.proposedAt)}</p>
                {i.status === 'proposed' && (
                  <p className="confirmations">
                    {t('Confirmations: {{count}} of 2', { count: i.confirmations?.length ?? 0 })}
                  </p>
                )}
                {i.status === 'proposed' && can('identifications:confirm') && mayConfirm(i) && (
                  <button type="button" onClick={() => void act(i.id, 'confirm')}>
                    {t('Confirm as second reviewer')}
                  </button>
                )}
                {i.status === 'confirmed' && can('identifications:inform') && (
                  <button type="button" onClick={() => void act(i.id, 'family-informed')}>
                    {t('The family was informed in person')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </div>
      {list.data && list.data.items.length === 0 && <p className="muted">{t('None.')}</p>}
      {can('identifications:propose') && session && <ProposeForm onDone={() => list.reload()} />}
    </section>
  );
}
