import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type List, type Place } from '../api.js';
import { type Language, languages } from '../i18n.js';
import { backoffSentence, fieldLabel, problemFields, problemSentence } from '../lib/index.js';

export function LanguageSwitch() {
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

/** An error in plain language, with the fields a validation problem names; announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : 'internal';
  const fields = error instanceof ApiError ? problemFields(error.problem) : [];
  const wait = error instanceof ApiError ? error.problem.retryAfter : undefined;
  const backoff = code === 'rate_limited' && typeof wait === 'number' ? backoffSentence(wait) : undefined;
  return (
    <div className="error-note" role="alert">
      <p>{backoff ? t(backoff.key, { n: backoff.count }) : t(problemSentence(code))}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => (
            <li key={f}>{t(fieldLabel(f.split('.').pop() ?? f))}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t('Loading…')}
    </p>
  );
}

/** Loads once per `deps` change; returns data, error and a reload function. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on.
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

/**
 * An evidence image, always the server's thumbnail and always blurred on screen as well: nobody meets a
 * graphic image without asking. Only the reveal flow (with a reason) shows an unblurred view.
 */
export function BlurredThumbnail({ evidenceId, label }: { evidenceId: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <span className="thumb">
      <img
        src={`/api/evidence/${encodeURIComponent(evidenceId)}/thumbnail`}
        alt={label ?? t('Blurred evidence image')}
        loading="lazy"
        className="blurred"
        width={160}
        height={160}
      />
    </span>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="field-row">
      <dt>{label}</dt>
      <dd dir="auto">{children}</dd>
    </div>
  );
}

/**
 * Intl locale of a language. Arabic uses Latin digits (as record numbers, codes and partial dates such as 2013-05
 * are written), so a date and a number read the same way everywhere on a page.
 */
export function locale(language: string): string {
  return language === 'ar' ? 'ar-SY-u-nu-latn' : 'en-GB';
}

/** A date as written (ISO), shown in the user's language's order. */
export function useFormatDate() {
  const { i18n } = useTranslation();
  return (value: string | null | undefined) => {
    if (!value) return '';
    const d = new Date(value);
    if (Number.isNaN(d.getTime()) || /^\d{4}(-\d{2})?$/.test(value)) return value;
    const withTime = value.length > 10;
    return new Intl.DateTimeFormat(locale(i18n.language), {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
    }).format(d);
  };
}

// Governorates and branches change rarely: loaded once per page load and shared by every screen.
let placesOnce: Promise<Map<string, Place>> | null = null;
function loadPlaces(): Promise<Map<string, Place>> {
  placesOnce ??= Promise.all([
    api.get<List<Place>>('/api/governorates').catch(() => ({ items: [] as Place[] })),
    api.get<List<Place>>('/api/branches').catch(() => ({ items: [] as Place[] })),
  ]).then(([g, b]) => new Map([...g.items, ...b.items].map((p) => [p.id, p])));
  return placesOnce;
}

/** Names a governorate or branch id in the reader's language; the id itself until the names arrive. */
export function usePlaces(enabled: boolean): (id: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const [places, setPlaces] = useState<Map<string, Place> | null>(null);
  useEffect(() => {
    if (enabled) void loadPlaces().then(setPlaces);
  }, [enabled]);
  return (id) => {
    if (!id) return '';
    const p = places?.get(id);
    return p ? (i18n.language === 'ar' ? p.nameAr : p.nameEn) : id;
  };
}

export function usePlaceName() {
  const { i18n } = useTranslation();
  return (p: { nameEn: string; nameAr: string } | undefined) =>
    p ? (i18n.language === 'ar' ? p.nameAr : p.nameEn) : '';
}

/** The free-service notice every public page carries. */
export function FreeNotice() {
  const { t } = useTranslation();
  return (
    <p className="free-notice" role="note">
      {t('This service is free. Nobody may ask you for money for information about your relative.')}
    </p>
  );
}
