import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../api.js';
import { ErrorNote, FreeNotice } from '../components/common.js';
import { asciiDigits, msg } from '../lib/index.js';

/** The consent questions, one per use, each separate and withdrawable (design.md). */
const consentQuestions = [
  ['internalUse', msg('athar’s team may use this report to search for my relative.')],
  ['partnerNgos', msg('athar may share it with partner human-rights organisations.')],
  ['nationalCommission', msg('athar may share it with the national commission for the missing.')],
  ['unIimp', msg('athar may share it with the UN institution for the missing in Syria.')],
  ['icmpIcrc', msg('athar may share it with the ICMP and the ICRC.')],
  ['criminalProceedings', msg('It may be used in criminal proceedings against those responsible.')],
  ['contactWithResults', msg('athar may contact me when there is news.')],
  ['photoComparison', msg('athar may compare what I describe with photographs in its archive.')],
] as const;

type ConsentKey = (typeof consentQuestions)[number][0];

const personFields = [
  ['fullName', msg('Full name of the missing person')],
  ['fatherName', msg('Father’s name')],
  ['motherName', msg('Mother’s name')],
  ['familyName', msg('Family name')],
  ['birthDate', msg('Date of birth (or year)')],
  ['governorate', msg('Governorate')],
  ['placeOfOrigin', msg('Home town or village')],
] as const;

const arrestFields = [
  ['date', msg('Date of arrest or disappearance (or year)')],
  ['place', msg('Where it happened')],
  ['branch', msg('Branch or place of detention, if known')],
] as const;

/** What the person looked like: the ante-mortem answers forensic comparison needs; every one optional. */
const lookFields = [
  ['heightCm', msg('Height in centimetres')],
  ['physique', msg('Build')],
  ['hair', msg('Hair')],
  ['eyeColour', msg('Eye colour')],
  ['distinctiveFeatures', msg('Scars, tattoos, marks or anything distinctive')],
  ['medicalHistory', msg('Illnesses, operations, broken bones')],
  ['dentalHistory', msg('Teeth: missing teeth, fillings, crowns')],
  ['personalItems', msg('Ring, watch or other things they carried')],
  ['clothingLastSeen', msg('Clothes when last seen')],
] as const;

/** The ante-mortem answers as the API takes them: height as a number, the rest as text; empty ones left out. */
function anteMortemOf(values: Record<string, string>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, raw] of Object.entries(values)) {
    const v = raw.trim();
    if (!v) continue;
    out[k] = k === 'heightCm' ? Number(asciiDigits(v)) : v;
  }
  return out;
}

const contactFields = [
  ['name', msg('Your name')],
  ['relation', msg('Your relation to the missing person')],
  ['phone', msg('Phone number')],
  ['email', msg('E-mail')],
] as const;

/** Fields where Arabic-Indic digits (٠١٢ or ۰۱۲) are turned into ASCII digits before sending. */
const numericFields = new Set(['birthDate', 'date', 'phone']);
const dateFields = new Set(['birthDate', 'date']);

function compact(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .map(([k, v]) => [k, numericFields.has(k) ? asciiDigits(v.trim()) : v.trim()] as const)
      .filter(([, v]) => v !== ''),
  );
}

export function ReportScreen() {
  const { t, i18n } = useTranslation();
  const [person, setPerson] = useState<Record<string, string>>({});
  const [sex, setSex] = useState('');
  const [arrest, setArrest] = useState<Record<string, string>>({});
  const [looks, setLooks] = useState<Record<string, string>>({});
  const [contact, setContact] = useState<Record<string, string>>({});
  const [consent, setConsent] = useState<Record<ConsentKey, boolean>>(
    Object.fromEntries(consentQuestions.map(([k]) => [k, false])) as Record<ConsentKey, boolean>,
  );
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<{ reference: string; secret: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const arrestValues = compact(arrest);
      const anteMortem = anteMortemOf(looks);
      const answer = await api.post<{ reference: string; secret: string }>('/api/public/reports', {
        person: { ...compact(person), ...(sex ? { sex } : {}) },
        ...(Object.keys(arrestValues).length ? { arrest: arrestValues } : {}),
        ...(Object.keys(anteMortem).length ? { anteMortem } : {}),
        consent,
        contact: compact(contact),
        language: i18n.language === 'en' ? 'en' : 'ar',
      });
      setReceipt(answer);
      window.scrollTo(0, 0);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (receipt)
    return (
      <section className="narrow public">
        <h1 tabIndex={-1}>{t('Your report was received')}</h1>
        <div className="receipt" role="status">
          <p className="warning">
            {t(
              'Write down these two codes now and keep them safe. They are shown only once, and you need both to check your report. Do not share them with anyone who asks for money.',
            )}
          </p>
          <dl>
            <div className="field-row">
              <dt>{t('Reference')}</dt>
              <dd dir="ltr" className="code" data-testid="reference">
                {receipt.reference}
              </dd>
            </div>
            <div className="field-row">
              <dt>{t('Secret')}</dt>
              <dd dir="ltr" className="code" data-testid="secret">
                {receipt.secret}
              </dd>
            </div>
          </dl>
        </div>
        <FreeNotice />
        <p>
          <Link to="/status">{t('Check the status of a report')}</Link>
        </p>
      </section>
    );

  const input = (
    group: Record<string, string>,
    set: (v: Record<string, string>) => void,
    name: string,
    label: string,
    prefix: string,
  ) => (
    <label key={name}>
      {t(label)}
      {dateFields.has(name) && (
        <span className="hint" id={`${prefix}-${name}-hint`}>
          {t('The year alone is enough, or the year and month. For example:')}{' '}
          <bdi dir="ltr">2013 · 2013-05 · 2013-05-21</bdi>
        </span>
      )}
      <input
        name={`${prefix}.${name}`}
        required={prefix === 'person' && name === 'fullName'}
        {...(dateFields.has(name)
          ? { 'aria-describedby': `${prefix}-${name}-hint`, inputMode: 'numeric' as const }
          : {})}
        value={group[name] ?? ''}
        onChange={(e) => set({ ...group, [name]: e.target.value })}
        dir="auto"
        {...(name === 'email' ? { type: 'email', autoComplete: 'email' } : {})}
        {...(name === 'phone' ? { type: 'tel', autoComplete: 'tel' } : {})}
      />
    </label>
  );

  return (
    <section className="narrow public">
      <h1 tabIndex={-1}>{t('Report a missing relative')}</h1>
      <FreeNotice />
      <p>
        {t(
          'Tell us what you know. Only the name is needed; leave any other field empty if you do not know it. A member of our team reads every report.',
        )}
      </p>
      <form onSubmit={submit} className="form">
        <fieldset>
          <legend>{t('The missing person')}</legend>
          {personFields.map(([name, label]) => input(person, setPerson, name, label, 'person'))}
          <label>
            {t('Sex')}
            <select name="person.sex" value={sex} onChange={(e) => setSex(e.target.value)}>
              <option value="">{t('Not stated')}</option>
              <option value="male">{t('Male')}</option>
              <option value="female">{t('Female')}</option>
            </select>
          </label>
        </fieldset>
        <fieldset>
          <legend>{t('The arrest or disappearance')}</legend>
          {arrestFields.map(([name, label]) => input(arrest, setArrest, name, label, 'arrest'))}
        </fieldset>
        <details className="looks">
          <summary>{t('What they looked like (optional)')}</summary>
          <fieldset>
            <legend>
              {t(
                'This helps compare your relative with records and photographs. Skip anything you do not know.',
              )}
            </legend>
            {lookFields.map(([name, label]) =>
              name === 'heightCm' ? (
                <label key={name}>
                  {t(label)}
                  <input
                    name="anteMortem.heightCm"
                    inputMode="numeric"
                    value={looks.heightCm ?? ''}
                    onChange={(e) => setLooks({ ...looks, heightCm: e.target.value })}
                    dir="ltr"
                  />
                </label>
              ) : (
                <label key={name}>
                  {t(label)}
                  <textarea
                    name={`anteMortem.${name}`}
                    rows={2}
                    value={looks[name] ?? ''}
                    onChange={(e) => setLooks({ ...looks, [name]: e.target.value })}
                    dir="auto"
                  />
                </label>
              ),
            )}
          </fieldset>
        </details>
        <fieldset>
          <legend>{t('How we may use this report')}</legend>
          <p className="muted">
            {t('Each choice is separate. You may change your mind later through our team.')}
          </p>
          {consentQuestions.map(([key, label]) => (
            <label key={key} className="check">
              <input
                type="checkbox"
                name={`consent.${key}`}
                checked={consent[key]}
                onChange={(e) => setConsent({ ...consent, [key]: e.target.checked })}
              />
              <span>{t(label)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t('How to reach you (optional)')}</legend>
          <p className="muted">
            {t('Kept apart from the report, encrypted, and seen only by our family liaisons.')}
          </p>
          {contactFields.map(([name, label]) => input(contact, setContact, name, label, 'contact'))}
        </fieldset>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? t('Sending…') : t('Send the report')}
        </button>
      </form>
    </section>
  );
}
