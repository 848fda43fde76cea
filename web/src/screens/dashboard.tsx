import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api, type Stats } from '../api.js';
import { ErrorNote, Loading, locale, useLoad, usePlaceName } from '../components/common.js';
import { msg } from '../lib/index.js';
import { EstimatePanel } from './estimate.js';

const totals = [
  ['records', msg('Records')],
  ['persons', msg('Persons')],
  ['evidence', msg('Evidence items')],
  ['identifications', msg('Identifications')],
  ['reports', msg('Family reports')],
] as const;

// Colours chosen for 4.5:1 against the paper background (WCAG AA for the labels drawn beside them).
const ink = '#0b5d4b';
const second = '#8a4b08';

function ChartCard({
  title,
  children,
  empty,
  height = 260,
}: {
  title: string;
  children: React.ReactElement;
  empty: boolean;
  /** Bar charts by name grow with their bars, so that every bar keeps its label. */
  height?: number;
}) {
  const { t } = useTranslation();
  return (
    <figure className="chart-card">
      <figcaption>{title}</figcaption>
      {empty ? (
        <p className="muted">{t('Nothing to show yet.')}</p>
      ) : (
        <div className="chart" dir="ltr">
          <ResponsiveContainer width="100%" height={height}>
            {children}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}

/** A height at which each bar of a chart by name has room for its label (every bar is named, none skipped). */
export function barsHeight(bars: number): number {
  return Math.max(260, 40 + bars * 26);
}

export function DashboardScreen() {
  const { t, i18n } = useTranslation();
  const placeName = usePlaceName();
  const { data, error, loading } = useLoad(() => api.get<Stats>('/api/stats'), []);
  const number = new Intl.NumberFormat(locale(i18n.language));
  const rtl = i18n.dir() === 'rtl';

  return (
    <section>
      <h1 tabIndex={-1}>{t('Dashboard')}</h1>
      {loading && !data && <Loading />}
      <ErrorNote error={error} />
      {data && (
        <>
          <ul className="totals">
            {totals.map(([key, label]) => (
              <li key={key}>
                <span className="total-number">{number.format(data.totals[key] ?? 0)}</span>
                <span className="total-label">{t(label)}</span>
              </li>
            ))}
          </ul>
          <div className="charts">
            <ChartCard
              title={t('Records by governorate')}
              empty={data.byGovernorate.length === 0}
              height={barsHeight(data.byGovernorate.length)}
            >
              <BarChart
                data={data.byGovernorate.map((g) => ({ name: placeName(g), count: g.count }))}
                layout="vertical"
                margin={{ left: 8, right: 8 }}
              >
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" allowDecimals={false} reversed={rtl} />
                <YAxis
                  type="category"
                  dataKey="name"
                  width={110}
                  interval={0}
                  orientation={rtl ? 'right' : 'left'}
                />
                <Tooltip />
                <Bar dataKey="count" name={t('Records')} fill={ink} maxBarSize={36} />
              </BarChart>
            </ChartCard>
            <ChartCard title={t('Records by year of arrest')} empty={data.byArrestYear.length === 0}>
              <BarChart data={data.byArrestYear}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="year" reversed={rtl} interval={0} />
                <YAxis allowDecimals={false} orientation={rtl ? 'right' : 'left'} />
                <Tooltip />
                <Bar dataKey="count" name={t('Records')} fill={ink} maxBarSize={36} />
              </BarChart>
            </ChartCard>
            <ChartCard
              title={t('Records by branch')}
              empty={data.byBranch.length === 0}
              height={barsHeight(data.byBranch.length)}
            >
              <BarChart
                data={data.byBranch.map((b) => ({ name: placeName(b), count: b.count }))}
                layout="vertical"
                margin={{ left: 8, right: 8 }}
              >
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" allowDecimals={false} reversed={rtl} />
                <YAxis
                  type="category"
                  dataKey="name"
                  width={130}
                  interval={0}
                  orientation={rtl ? 'right' : 'left'}
                />
                <Tooltip />
                <Bar dataKey="count" name={t('Records')} fill={second} maxBarSize={36} />
              </BarChart>
            </ChartCard>
            <ChartCard title={t('Identifications by month')} empty={data.identificationsByMonth.length === 0}>
              <LineChart data={data.identificationsByMonth}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="month" reversed={rtl} />
                <YAxis allowDecimals={false} orientation={rtl ? 'right' : 'left'} />
                <Tooltip />
                <Line dataKey="count" name={t('Identifications')} stroke={ink} strokeWidth={2} />
              </LineChart>
            </ChartCard>
            <ChartCard title={t('Ingest and import activity')} empty={data.activity.length === 0}>
              <BarChart data={data.activity}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" reversed={rtl} />
                <YAxis allowDecimals={false} orientation={rtl ? 'right' : 'left'} />
                <Tooltip />
                <Legend />
                <Bar dataKey="ingested" name={t('Files ingested')} stackId="a" fill={ink} />
                <Bar dataKey="imported" name={t('Records imported')} stackId="a" fill={second} />
              </BarChart>
            </ChartCard>
          </div>
          <EstimatePanel />
        </>
      )}
    </section>
  );
}
