import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { api, type SessionAnswer } from '../api.js';
import { ErrorNote, Loading } from '../components/common.js';
import { useSession } from '../session.js';

function ChangePassword({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/api/me/password', { current, next });
      setDone(true);
      setCurrent('');
      setNext('');
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={submit} className="form narrow">
      <h2>{t('Change your password')}</h2>
      <label>
        {t('Current password')}
        <input
          type="password"
          name="current"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
      </label>
      <label>
        {t('New password (at least 12 characters)')}
        <input
          type="password"
          name="next"
          autoComplete="new-password"
          minLength={12}
          required
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
      </label>
      <ErrorNote error={error} />
      {done && <p role="status">{t('Your password was changed. Your other sessions have ended.')}</p>}
      <button type="submit">{t('Change password')}</button>
    </form>
  );
}

/** TOTP enrolment: a new secret to type into an authenticator app, then one code to confirm it. */
function EnrolTotp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [secret, setSecret] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);

  async function start() {
    setError(null);
    try {
      setSecret(await api.post<{ secret: string; uri: string }>('/api/me/totp', {}));
    } catch (err) {
      setError(err);
    }
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/api/me/totp/confirm', { code });
      onDone();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div className="narrow">
      <h2>{t('Two-step sign-in')}</h2>
      {!secret ? (
        <>
          <p>{t('Your account needs a code from an authenticator app at each sign-in.')}</p>
          <button type="button" onClick={() => void start()}>
            {t('Set up the authenticator app')}
          </button>
        </>
      ) : (
        <form onSubmit={confirm} className="form">
          <p>{t('Add this key to your authenticator app, then enter the code it shows.')}</p>
          <p dir="ltr" className="code">
            {secret.secret}
          </p>
          <label>
            {t('Code from your authenticator app')}
            <input
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              dir="ltr"
            />
          </label>
          <button type="submit">{t('Confirm')}</button>
        </form>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

export function AccountScreen() {
  const { t } = useTranslation();
  const { session, signedIn } = useSession();
  if (session === undefined) return <Loading />;
  if (!session) return <Navigate to="/sign-in" replace />;
  const refresh = () => {
    void api.get<SessionAnswer>('/api/session').then(signedIn, () => {});
  };
  return (
    <section>
      <h1 tabIndex={-1}>{t('Your account')}</h1>
      <p dir="auto">{session.user.displayName ?? session.user.username}</p>
      {session.user.mustChangePassword && <p className="warning">{t('Please change your password.')}</p>}
      {session.totpEnrolmentRequired && (
        <p className="warning">{t('Set up two-step sign-in before you can use the workspace.')}</p>
      )}
      {!session.user.mustChangePassword &&
        (session.totpEnrolmentRequired || (session.user.totpRequired && !session.user.totpEnrolled)) && (
          <EnrolTotp onDone={refresh} />
        )}
      <ChangePassword onDone={refresh} />
    </section>
  );
}
