import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api, type RecordItem, type ReviewPair } from '../api.js';
import { ErrorNote, Loading, locale, usePlaces } from '../components/common.js';
import {
  comparisonOf,
  fieldLabel,
  levelLabel,
  msg,
  recordFields,
  type Verdict,
  verdictForKey,
  waterfallBars,
} from '../lib/index.js';
import { useSession } from '../session.js';

const barColours = { prior: '#50575e', for: '#0b5d4b', against: '#a3231f', total: '#1d2327' } as const;

/**
 * A pair the match weighed with one record's names read in the other order of writing (a register line written
 * family first): the name rows' agreement below is of that reading, not of the columns as printed.
 */
function NameOrderNote({ explanation }: { explanation: ReviewPair['explanation'] }) {
  const { t } = useTranslation();
  const order = explanation?.steps.find((s) => s.field === 'name_order');
  if (!order) return null;
  return (
    <p className="notice" role="note" data-name-order={order.level}>
      {t(fieldLabel('name_order'))}: {t(levelLabel(order.level))}.{' '}
      {t('The names below agree or differ as so read.')}
    </p>
  );
}

function Waterfall({ explanation }: { explanation: NonNullable<ReviewPair['explanation']> }) {
  const { t, i18n } = useTranslation();
  const bars = waterfallBars(explanation.prior, explanation.steps).map((b) => ({
    ...b,
    name: b.kind === 'prior' ? t('Prior') : b.kind === 'total' ? t('Total') : t(fieldLabel(b.field)),
  }));
  const rtl = i18n.dir() === 'rtl';
  return (
    <figure className="chart-card">
      <figcaption>{t('How the match weight adds up (log₂ odds)')}</figcaption>
      <div className="chart" dir="ltr">
        <ResponsiveContainer width="100%" height={Math.max(220, bars.length * 28)}>
          <BarChart data={bars} layout="vertical" margin={{ left: 8, right: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" reversed={rtl} />
            <YAxis
              type="category"
              dataKey="name"
              width={130}
              interval={0}
              orientation={rtl ? 'right' : 'left'}
            />
            <ReferenceLine x={0} stroke="#1d2327" />
            <Tooltip
              formatter={(_v, _n, item) => {
                const bar = item.payload as { weight: number; level?: string };
                // The level in the reader's words beside the weight ("same name in the other script: 6.20").
                return bar.level
                  ? `${t(levelLabel(bar.level))}: ${bar.weight.toFixed(2)}`
                  : bar.weight.toFixed(2);
              }}
            />
            <Bar dataKey="range" isAnimationActive={false}>
              {bars.map((b) => (
                <Cell key={b.key} fill={barColours[b.kind]} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="visually-hidden">
        <caption>{t('Match weight by field')}</caption>
        <tbody>
          {bars.map((b) => (
            <tr key={b.key}>
              <th scope="row">{b.name}</th>
              <td>{b.level ? t(levelLabel(b.level)) : ''}</td>
              <td>{b.weight.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

const agreementWords = {
  agree: msg('agrees'),
  partial: msg('partly agrees'),
  disagree: msg('disagrees'),
  missing: msg('missing on one side'),
} as const;

/** The two records field by field; each row carries its agreement as a colour and as a word (not colour alone). */
function PairTable({
  a,
  b,
  agreement,
}: {
  a: RecordItem;
  b: RecordItem;
  agreement: ReviewPair['agreement'];
}) {
  const { t } = useTranslation();
  const { can } = useSession();
  const placeName = usePlaces(can('places:read'));
  const show = (f: string, v: unknown) =>
    v === null || v === undefined ? '' : /(governorate|branch)Id$/.test(f) ? placeName(String(v)) : String(v);
  const level = (f: string) => agreement[f] ?? agreement[comparisonOf(f)];
  const fields = recordFields.filter((f) => a[f] || b[f] || level(f));
  return (
    <div className="table-scroll">
      <table className="pair-table">
        <thead>
          <tr>
            <th scope="col">{t('Field')}</th>
            <th scope="col">{t('Record A')}</th>
            <th scope="col">{t('Record B')}</th>
            <th scope="col">{t('Agreement')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const l = level(f);
            return (
              <tr key={f} className={l ? `agreement-${l}` : undefined}>
                <th scope="row">{t(fieldLabel(f))}</th>
                <td dir="auto">{show(f, a[f])}</td>
                <td dir="auto">{show(f, b[f])}</td>
                <td>{l ? t(agreementWords[l]) : ''}</td>
              </tr>
            );
          })}
          <tr>
            <th scope="row">{t('Source')}</th>
            <td dir="auto">{a.source?.name}</td>
            <td dir="auto">{b.source?.name}</td>
            <td />
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function ReviewScreen() {
  const { t, i18n } = useTranslation();
  const { can } = useSession();
  const mayDecide = can('review:decide');
  const [pair, setPair] = useState<ReviewPair | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const [done, setDone] = useState<{ verdict: Verdict; count: number } | null>(null);
  const busyRef = useRef(false);

  const loadNext = useCallback(async () => {
    try {
      const answer = await api.get<{ pair: ReviewPair | null }>('/api/review/next');
      setPair(answer.pair);
      setError(null);
    } catch (err) {
      setError(err);
      setPair(null);
    }
  }, []);

  useEffect(() => {
    void loadNext();
  }, [loadNext]);

  const decide = useCallback(
    async (verdict: Verdict) => {
      if (!pair || busyRef.current || !mayDecide) return;
      busyRef.current = true;
      setBusy(true);
      try {
        await api.post(`/api/review/pairs/${pair.id}/decision`, {
          verdict,
          ...(note.trim() ? { note } : {}),
        });
        setDone((d) => ({ verdict, count: (d?.count ?? 0) + 1 }));
        setNote('');
        await loadNext();
      } catch (err) {
        setError(err);
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [pair, note, loadNext, mayDecide],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const verdict = verdictForKey({
        key: e.key,
        code: e.code,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        targetTag: (e.target as HTMLElement | null)?.tagName,
      });
      if (verdict) {
        e.preventDefault();
        void decide(verdict);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [decide]);

  const percent = new Intl.NumberFormat(locale(i18n.language), {
    style: 'percent',
    maximumFractionDigits: 1,
  });

  return (
    <section>
      <h1 tabIndex={-1}>{t('Review queue')}</h1>
      <p className="muted">
        {t('Keys: m = same person, n = different people, u = unsure.')}
        {done && (
          <span role="status" className="decided">
            {' '}
            {t('Decided in this sitting: {{count}}', { count: done.count })}
          </span>
        )}
      </p>
      <ErrorNote error={error} />
      {pair === undefined && <Loading />}
      {pair === null && !error && <p role="status">{t('The queue is empty. Thank you.')}</p>}
      {pair && (
        <div className="review" data-pair={pair.id}>
          <p className="probability">
            {t('Probability of the same person')}: <strong>{percent.format(pair.probability)}</strong>
            <span className="muted">
              {' '}
              · {t('Match weight')} {pair.matchWeight.toFixed(2)} · {t('Model')} {pair.modelVersion}
            </span>
          </p>
          <NameOrderNote explanation={pair.explanation} />
          <PairTable a={pair.a} b={pair.b} agreement={pair.agreement} />
          {mayDecide && (
            <div className="decide">
              <label>
                {t('Note (optional)')}
                <input value={note} onChange={(e) => setNote(e.target.value)} name="note" dir="auto" />
              </label>
              <div className="buttons">
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void decide('match')}
                  aria-keyshortcuts="m"
                >
                  {t('Same person')} <kbd>m</kbd>
                </button>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void decide('non_match')}
                  aria-keyshortcuts="n"
                >
                  {t('Different people')} <kbd>n</kbd>
                </button>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void decide('unsure')}
                  aria-keyshortcuts="u"
                >
                  {t('Unsure')} <kbd>u</kbd>
                </button>
              </div>
            </div>
          )}
          {pair.explanation && (
            <>
              <Waterfall explanation={pair.explanation} />
              <details>
                <summary>{t('Each field’s comparison')}</summary>
                <ul>
                  {pair.explanation.steps.map((s) => (
                    <li key={s.field}>
                      {t(fieldLabel(s.field))}: {t(levelLabel(s.level))} ({s.weight.toFixed(2)})
                    </li>
                  ))}
                </ul>
              </details>
            </>
          )}
        </div>
      )}
    </section>
  );
}
