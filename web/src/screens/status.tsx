import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, api } from '../api.js';
import { ErrorNote, FreeNotice } from '../components/common.js';
import { msg } from '../lib/index.js';

// Coarse states only: a death is never told online (design.md), so "contact_liaison" asks the family to talk to us.
const statusSentences: Record<string, string> = {
  received: msg('We have received your report. Nobody has worked on it yet.'),
  under_review: msg('Our team is working on your report.'),
  contact_liaison: msg('We would like to speak with you. Please contact our family liaison team.'),
};

export function StatusScreen() {
  const { t } = useTranslation();
  const [reference, setReference] = useState('');
  const [secret, setSecret] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notFound, setNotFound] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotFound(false);
    setStatus(null);
    try {
      const answer = await api.post<{ status: string }>('/api/public/reports/status', {
        reference: reference.trim(),
        secret: secret.trim(),
      });
      setStatus(answer.status);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found') setNotFound(true);
      else setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="narrow public">
      <h1 tabIndex={-1}>{t('Check the status of a report')}</h1>
      <FreeNotice />
      <form onSubmit={submit} className="form">
        <label>
          {t('Reference')}
          <input
            name="reference"
            required
            autoComplete="off"
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            dir="ltr"
          />
        </label>
        <label>
          {t('Secret')}
          <input
            name="secret"
            type="password"
            required
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            dir="ltr"
          />
        </label>
        <ErrorNote error={error} />
        {notFound && (
          <p className="error-note" role="alert">
            {t('We could not find a report with this reference and secret. Check both and try again.')}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? t('Checking…') : t('Check')}
        </button>
      </form>
      {status && (
        <div className="status-answer" role="status" data-status={status}>
          <p>{t(statusSentences[status] ?? msg('Our team is working on your report.'))}</p>
        </div>
      )}
      <p>
        <Link to="/report">{t('Report a missing relative')}</Link>
      </p>
    </section>
  );
}
