import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ar } from './locales/ar.js';

export const languages = {
  ar: { label: 'العربية', dir: 'rtl' },
  en: { label: 'English', dir: 'ltr' },
} as const;
export type Language = keyof typeof languages;

const storageKey = 'athar.lang';

export function initialLanguage(): Language {
  const saved = globalThis.localStorage?.getItem(storageKey);
  if (saved === 'ar' || saved === 'en') return saved;
  // Arabic first: the public pages are for Syrian families.
  return 'ar';
}

/** Keeps <html lang dir> in step with the language, so CSS logical properties flip the layout. */
export function applyLanguage(lang: Language): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = languages[lang].dir;
  globalThis.localStorage?.setItem(storageKey, lang);
}

// English source strings are the keys; the Arabic file translates every one of them.
await i18next.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  resources: { ar: { translation: ar }, en: { translation: {} } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});
applyLanguage(i18next.language as Language);
i18next.on('languageChanged', (lng) => applyLanguage(lng as Language));

export default i18next;
