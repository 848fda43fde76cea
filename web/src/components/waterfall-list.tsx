import { useTranslation } from 'react-i18next';
import type { ReviewPair } from '../api.js';
import { fieldLabel, levelLabel, waterfallBars } from '../lib/index.js';
import { locale } from './common.js';

/**
 * The match-weight waterfall as a list of bars drawn with CSS (no chart library: the person page stays light): each
 * field and how it agreed, in the reader's language, its weight, and the probability it adds up to.
 */
export function WaterfallList({ explanation }: { explanation: NonNullable<ReviewPair['explanation']> }) {
  const { t, i18n } = useTranslation();
  const bars = waterfallBars(explanation.prior, explanation.steps);
  const widest = Math.max(1, ...bars.map((b) => Math.abs(b.weight)));
  const number = new Intl.NumberFormat(locale(i18n.language), {
    maximumFractionDigits: 1,
    signDisplay: 'always',
  });
  const percent = new Intl.NumberFormat(locale(i18n.language), {
    style: 'percent',
    maximumFractionDigits: 1,
  });
  return (
    <figure className="waterfall-list">
      <figcaption>
        {t('How the match weight adds up (log₂ odds)')} ·{' '}
        <strong>{t('probability {{p}}', { p: percent.format(explanation.probability) })}</strong>
      </figcaption>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('Field')}</th>
            <th scope="col">{t('How it compares')}</th>
            <th scope="col">{t('Weight')}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.key} data-kind={b.kind}>
              <th scope="row">
                {b.kind === 'prior' ? t('Prior') : b.kind === 'total' ? t('Total') : t(fieldLabel(b.field))}
              </th>
              <td>{b.level ? t(levelLabel(b.level)) : ''}</td>
              <td>
                <span className="weight-bar">
                  <span
                    className={`bar bar-${b.kind}`}
                    style={{ inlineSize: `${(Math.abs(b.weight) / widest) * 100}%` }}
                  />
                </span>
                <bdi dir="ltr">{number.format(b.weight)}</bdi>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
