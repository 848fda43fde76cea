import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api, type SessionAnswer } from '../api.js';
import { ErrorNote } from '../components/common.js';
import { homeFor } from '../lib/index.js';
import { useSession } from '../session.js';

export function SignInScreen() {
  const { t } = useTranslation();
  const { session, signedIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needTotp, setNeedTotp] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const next = (answer: SessionAnswer) => {
    if (answer.totpEnrolmentRequired || answer.user.mustChangePassword) return '/account';
    const wanted = params.get('next');
    // Only same-site paths: a crafted link must not send a signed-in user elsewhere.
    return wanted?.startsWith('/') && !wanted.startsWith('//') ? wanted : homeFor(answer.permissions);
  };

  if (session) return <Navigate to={next(session)} replace />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<SessionAnswer>('/api/session', {
        username,
        password,
        ...(needTotp && totp ? { totp } : {}),
      });
      signedIn(answer);
      navigate(next(answer), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'totp_required') {
        // First time: ask for the code without calling it an error; afterwards the code was wrong.
        if (!needTotp) {
          setNeedTotp(true);
        } else {
          setError(err);
        }
      } else {
        setError(err);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="narrow">
      <h1 tabIndex={-1}>{t('Staff sign-in')}</h1>
      <form onSubmit={submit} className="form" aria-describedby="sign-in-note">
        <p id="sign-in-note" className="muted">
          {t('For athar’s staff. Families do not need an account: use the report and status pages.')}
        </p>
        <label>
          {t('User name')}
          <input
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            dir="auto"
          />
        </label>
        <label>
          {t('Password')}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {needTotp && (
          <label>
            {t('Code from your authenticator app')}
            <input
              name="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              // biome-ignore lint/a11y/noAutofocus: the field appears because the server asked for it.
              autoFocus
              value={totp}
              onChange={(e) => setTotp(e.target.value.replace(/\D/g, ''))}
              dir="ltr"
            />
          </label>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? t('Signing in…') : t('Sign in')}
        </button>
      </form>
    </section>
  );
}
