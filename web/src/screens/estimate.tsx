import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, type Estimate, type EstimateOutcome, type List } from '../api.js';
import { ChoiceSelect } from '../components/choice-select.js';
import { ErrorNote, Loading, locale, useLoad, usePlaces } from '../components/common.js';
import { apiWord, msg } from '../lib/index.js';
import { methodsText } from '../lib/methods-text.js';
import { useSession } from '../session.js';

export const strataChoices = [
  ['', msg('No groups: the whole registry')],
  ['governorate', msg('By governorate')],
  ['year', msg('By year of arrest')],
  ['sex', msg('By sex')],
  ['branch', msg('By arresting branch')],
] as const;

const methods = [
  ['loglinear', msg('Log-linear models')],
  ['lcmcr', msg('Latent classes (LCMCR)')],
  ['both', msg('Both, side by side')],
] as const;

/** Why a group gets no number, by the core's refusal codes (src/estimate/tables.ts), in words. */
const refusals: Record<string, string> = {
  'too-few-lists': msg('Fewer than three lists: no estimate is possible.'),
  'no-records': msg('No one in this group.'),
  'empty-list': msg('One of the lists holds no one in this group.'),
  'no-overlaps': msg(
    'The lists share no one in this group, so their overlap cannot say how many are missing.',
  ),
  'not-estimable': msg('No model could be fitted to these lists.'),
  'linkage-sample-refused': msg('A sample of the linkage could not be estimated.'),
};

/** What to be careful about, by the core's warning codes. */
const warnings: Record<string, string> = {
  'few-overlaps': msg('Two lists share very few people: the range is less certain than it looks.'),
  subset: msg('One list is contained in another: they are not separate looks.'),
  'contains-all': msg('One list holds everyone seen: the others add little.'),
  'sparse-cells': msg('Many combinations of lists hold few or no people.'),
  'poor-fit': msg('The chosen model fits the lists poorly.'),
  'no-upper-bound': msg('The range has no upper end.'),
  'lower-bound-at-observed': msg('The lower end of the range is the number already seen.'),
  'models-disagree': msg('Models almost as good give very different numbers.'),
  'not-converged': msg('The latent-class sampler did not settle.'),
  'classes-full': msg('The latent-class model used every class it was allowed.'),
  'methods-disagree': msg('The two methods disagree: their ranges do not overlap.'),
  'linkage-samples': msg('The range includes the uncertainty of the linkage.'),
};

function isEstimate(o: EstimateOutcome | undefined): o is Extract<EstimateOutcome, { estimate: number }> {
  return !!o && 'estimate' in o;
}

function Outcome({ outcome }: { outcome: EstimateOutcome | undefined }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(locale(i18n.language));
  if (!outcome) return <td />;
  if (!isEstimate(outcome))
    return (
      <td className="muted" title={outcome.refusal.message}>
        {t(refusals[outcome.refusal.code] ?? outcome.refusal.code)}
      </td>
    );
  const { lower, upper, level } = outcome.interval;
  return (
    <td data-estimate={Math.round(outcome.estimate)}>
      <strong>{number.format(Math.round(outcome.estimate))}</strong>
      <br />
      <span className="muted">
        {upper === null
          ? t('{{level}}% range: {{lower}} or more', {
              level: Math.round(level * 100),
              lower: number.format(Math.round(lower)),
            })
          : t('{{level}}% range: {{lower}} to {{upper}}', {
              level: Math.round(level * 100),
              lower: number.format(Math.round(lower)),
              upper: number.format(Math.round(upper)),
            })}
      </span>
    </td>
  );
}

function Warnings({ items }: { items: { code: string; message: string }[] }) {
  const { t } = useTranslation();
  const seen = [...new Map(items.map((w) => [w.code, w])).values()];
  if (seen.length === 0) return null;
  return (
    <ul className="warnings">
      {seen.map((w) => (
        <li key={w.code} title={w.message} data-warning={w.code}>
          {t(warnings[w.code] ?? w.code)}
        </li>
      ))}
    </ul>
  );
}

function useStratumName(by: string) {
  const { t } = useTranslation();
  const place = usePlaces(by === 'governorate' || by === 'branch');
  return (stratum: string) => {
    if (stratum === 'unknown') return t('Not known');
    if (by === 'sex') return t(apiWord(stratum));
    if (by === 'governorate' || by === 'branch') return place(stratum);
    return stratum;
  };
}

/**
 * The estimate of how many are missing, per group: seen, estimated total and its range, for each method asked for,
 * with what to be careful about. Aggregates only; never a name.
 */
export function EstimateTable({ data }: { data: Estimate }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(locale(i18n.language));
  const stratumName = useStratumName(data.by ?? '');
  const shown = (['loglinear', 'lcmcr'] as const).filter((m) => data.strata.some((s) => s[m] !== undefined));
  if (data.refusal)
    return (
      <p className="muted" data-refusal={data.refusal.code} title={data.refusal.message}>
        {t(refusals[data.refusal.code] ?? data.refusal.code)}
      </p>
    );
  return (
    <div className="table-scroll">
      <table className="estimate">
        <caption className="muted">
          {t('Lists: {{names}}', { names: data.sources.map((s) => s.name).join(' · ') })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('Group')}</th>
            <th scope="col">{t('Seen on at least one list')}</th>
            {shown.map((m) => (
              <th key={m} scope="col">
                {t(m === 'loglinear' ? 'Estimated total (log-linear)' : 'Estimated total (latent classes)')}
              </th>
            ))}
            <th scope="col">{t('Be careful')}</th>
          </tr>
        </thead>
        <tbody>
          {data.strata.map((s) => (
            <tr key={s.stratum} data-stratum={s.stratum}>
              <th scope="row" dir="auto">
                {data.by ? stratumName(s.stratum) : t('Whole registry')}
              </th>
              <td>{number.format(s.observed)}</td>
              {s.refusal ? (
                <td colSpan={shown.length} className="muted" title={s.refusal.message}>
                  {t(refusals[s.refusal.code] ?? s.refusal.code)}
                </td>
              ) : (
                shown.map((m) => <Outcome key={m} outcome={s[m]} />)
              )}
              <td>
                <Warnings items={s.warnings} />
              </td>
            </tr>
          ))}
        </tbody>
        {data.total && data.strata.length > 1 && (
          <tfoot>
            <tr>
              <th scope="row">{t('All groups, summed (approximate)')}</th>
              <td>{number.format(data.total.observed)}</td>
              {shown.map((m) => (
                <Outcome key={m} outcome={data.total?.[m]} />
              ))}
              <td />
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

function useEstimate(by: string, method: string, lists: string[]) {
  return useLoad(
    () =>
      api.get<Estimate>('/api/estimate', {
        by: by || undefined,
        method,
        lists: lists.length > 0 ? lists.join(',') : undefined,
      }),
    [by, method, lists.join(',')],
  );
}

/** The dashboard's panel: the estimate per governorate (or another grouping), with the way to the methods page. */
export function EstimatePanel() {
  const { t } = useTranslation();
  const [by, setBy] = useState('governorate');
  const { data, error, loading } = useEstimate(by, 'loglinear', []);
  return (
    <section className="chart-card estimate-panel" aria-labelledby="estimate-panel">
      <h2 id="estimate-panel">{t('How many are missing: an estimate')}</h2>
      <ChoiceSelect label={t('Groups')} name="by" value={by} choices={strataChoices} onChange={setBy} />
      {loading && <Loading />}
      <ErrorNote error={error} />
      {data && !loading && <EstimateTable data={data} />}
      <p>
        <Link to="/estimate/methods">{t('What this number means and when not to trust it')}</Link> ·{' '}
        <Link to="/estimate">{t('More choices')}</Link>
      </p>
    </section>
  );
}

export function EstimateScreen() {
  const { t } = useTranslation();
  const [by, setBy] = useState('');
  const [method, setMethod] = useState('both');
  const [lists, setLists] = useState<string[]>([]);
  const { can } = useSession();
  const sources = useLoad(
    () =>
      can('sources:read')
        ? api.get<List<{ id: string; name: string }>>('/api/sources')
        : Promise.resolve({ items: [] }),
    [],
  );
  const { data, error, loading } = useEstimate(by, method, lists);
  const toggle = (id: string) => setLists((l) => (l.includes(id) ? l.filter((x) => x !== id) : [...l, id]));
  return (
    <section>
      <h1 tabIndex={-1}>{t('How many are missing')}</h1>
      <p className="lead">
        {t(
          'The registry’s sources are taken as separate lists and its persons as who is the same person; how much the lists overlap gives an estimate of how many no list has recorded.',
        )}{' '}
        <Link to="/estimate/methods">{t('What this number means and when not to trust it')}</Link>
      </p>
      <form className="form filters" onSubmit={(e) => e.preventDefault()}>
        <ChoiceSelect label={t('Groups')} name="by" value={by} choices={strataChoices} onChange={setBy} />
        <ChoiceSelect
          label={t('Method')}
          name="method"
          value={method}
          choices={methods}
          onChange={setMethod}
        />
        {(sources.data?.items.length ?? 0) > 0 && (
          <fieldset>
            <legend>{t('Lists (three to six; none chosen: every source)')}</legend>
            {sources.data?.items.map((s) => (
              <label key={s.id} className="check">
                <input
                  type="checkbox"
                  name="lists"
                  value={s.id}
                  checked={lists.includes(s.id)}
                  onChange={() => toggle(s.id)}
                />
                <span dir="auto">{s.name}</span>
              </label>
            ))}
          </fieldset>
        )}
      </form>
      {loading && <Loading />}
      <ErrorNote error={error} />
      {data && !loading && (
        <>
          <EstimateTable data={data} />
          {method !== 'loglinear' && (
            <p className="muted">
              {t(
                'The latent-class estimate is drawn at random from its model: a second run may differ a little in its last figures.',
              )}
            </p>
          )}
          <details>
            <summary>{t('For statisticians: the models chosen and why (English)')}</summary>
            <ul dir="ltr" lang="en">
              {data.strata.flatMap((s) =>
                (['loglinear', 'lcmcr'] as const).flatMap((m) => {
                  const o = s[m];
                  return isEstimate(o)
                    ? [
                        <li key={`${s.stratum}-${m}`}>
                          {s.stratum} · {m}: {o.model} — {o.why}
                        </li>,
                      ]
                    : [];
                }),
              )}
            </ul>
          </details>
        </>
      )}
    </section>
  );
}

export function EstimateMethodsScreen() {
  const { i18n } = useTranslation();
  const text = methodsText[i18n.language === 'ar' ? 'ar' : 'en'];
  return (
    <article className="methods">
      <h1 tabIndex={-1}>{text.title}</h1>
      {text.sections.map((s) => (
        <section key={s.heading}>
          <h2>{s.heading}</h2>
          {s.blocks.map((b, i) =>
            b.p ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed text; the order never changes.
              <p key={i}>{b.p}</p>
            ) : b.list ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed text; the order never changes.
              <ul key={i}>
                {b.list.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed text; the order never changes.
              <ol key={i}>
                {b.numbered?.map((item) => (
                  <li key={item.term}>
                    <strong>{item.term}.</strong> {item.text}
                  </li>
                ))}
              </ol>
            ),
          )}
        </section>
      ))}
    </article>
  );
}
