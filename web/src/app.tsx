import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Language, languages } from './i18n.js';

function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('Language')}</span>
      <select
        value={i18n.language}
        onChange={(e) => void i18n.changeLanguage(e.target.value as Language)}
        aria-label={t('Language')}
      >
        {Object.entries(languages).map(([code, { label }]) => (
          <option key={code} value={code} lang={code}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

function Health() {
  const { t } = useTranslation();
  const [state, setState] = useState<'checking' | 'ok' | 'down'>('checking');
  useEffect(() => {
    fetch('/healthz')
      .then((r) => setState(r.ok ? 'ok' : 'down'))
      .catch(() => setState('down'));
  }, []);
  const text = state === 'checking' ? t('Checking…') : state === 'ok' ? t('Running') : t('Unavailable');
  return (
    <p className="health" data-state={state}>
      {t('Service status')}: <output>{text}</output>
    </p>
  );
}

export function App() {
  const { t } = useTranslation();
  return (
    <div className="shell">
      <header className="shell-header">
        <h1 className="brand">{t('athar')}</h1>
        <LanguageSwitch />
      </header>
      <main className="shell-main">
        <p className="lead">
          {t(
            'Keeping the evidence of Syria’s detainees and disappeared, and bringing families and that evidence together.',
          )}
        </p>
        <p className="free-notice" role="note">
          {t('This service is free. Nobody may ask you for money for information about your relative.')}
        </p>
        <nav className="actions">
          <a href="/report">{t('Report a missing relative')}</a>
          <a href="/status">{t('Check the status of a report')}</a>
          <a href="/sign-in">{t('Staff sign-in')}</a>
        </nav>
        <Health />
      </main>
    </div>
  );
}
