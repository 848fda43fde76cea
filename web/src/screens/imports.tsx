import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, api } from '../api.js';
import { ChoiceSelect } from '../components/choice-select.js';
import { ErrorNote, useFormatDate, useLoad } from '../components/common.js';
import { apiWord, fieldLabel, msg } from '../lib/index.js';
import { recordKindNames } from './record.js';

type RecordKind = (typeof recordKindNames)[number][0];

/** What POST /api/imports/preview says of a file: read as the import would read it; nothing stored. */
interface Preview {
  fileName: string;
  format: 'csv' | 'xlsx' | 'pfif';
  encoding: string | null;
  sheet: string | null;
  total: number;
  header: string[];
  guesses: { header: string; column: string | null; confidence: string; note?: string }[];
  needsConfirmation: boolean;
  samples: string[][];
  columns: string[];
}

interface SavedMap {
  name: string;
  columns: Record<string, string>;
}

interface ImportItem {
  id: string;
  status: string;
  fileName: string | null;
  dryRun: boolean;
  total: number;
  created: number;
  createdAt: string;
}

const guessed = '';

/** The column each header goes to: a saved map's choice, else athar's guess (exact names are always read). */
function mapFrom(preview: Preview, saved: SavedMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of preview.guesses) {
    if (g.confidence === 'exact' && g.column) out[g.header] = g.column;
    else if (saved) out[g.header] = saved.columns[g.header] ?? '';
    else out[g.header] = g.column ?? '';
  }
  return out;
}

/**
 * Imports (documenters): a file is read as soon as it is chosen (POST /api/imports/preview): its format and
 * encoding, its rows, and each header with the field athar will read it as, beside the first values. The user
 * corrects the map (or picks one saved by name), may keep it by name, and starts a trial run or the import with that
 * map. docs/import.md.
 */
export function ImportsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const formatDate = useFormatDate();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [reading, setReading] = useState(false);
  const [map, setMap] = useState<Record<string, string>>({});
  const [mapping, setMapping] = useState(guessed);
  const [saveAs, setSaveAs] = useState('');
  const [kind, setKind] = useState<RecordKind>('registry_line');
  const [source, setSource] = useState('');
  const [dryRun, setDryRun] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const saved = useLoad(() => api.get<{ items: SavedMap[] }>('/api/imports/mappings'), []);
  const recent = useLoad(() => api.get<{ items: ImportItem[] }>('/api/imports', { limit: 10 }), []);
  const savedMaps = useMemo(() => saved.data?.items ?? [], [saved.data]);

  // A new file is read at once; the map starts from the guess (or the saved map chosen).
  useEffect(() => {
    if (!file) return;
    let live = true;
    setReading(true);
    setError(null);
    setPreview(null);
    api.postFile<Preview>('/api/imports/preview', file, { fileName: file.name }).then(
      (p) => {
        if (!live) return;
        setPreview(p);
        setReading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(err);
        setReading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [file]);

  useEffect(() => {
    if (preview)
      setMap(
        mapFrom(
          preview,
          savedMaps.find((m) => m.name === mapping),
        ),
      );
  }, [preview, mapping, savedMaps]);

  // Two headers read as one field is refused by the import; say so here, before it runs.
  const twice = useMemo(() => {
    const seen = new Map<string, number>();
    for (const c of Object.values(map)) if (c) seen.set(c, (seen.get(c) ?? 0) + 1);
    return new Set([...seen].filter(([, n]) => n > 1).map(([c]) => c));
  }, [map]);
  const reads = Object.values(map).filter(Boolean).length;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file || !preview) return;
    setBusy(true);
    setError(null);
    try {
      const columns = Object.fromEntries(Object.entries(map).filter(([, c]) => c));
      // The file goes as it is (the server reads its encoding again), with the map the user saw and confirmed.
      const { id } = await api.postFile<{ id: string }>('/api/imports', file, {
        kind,
        source: source.trim() || undefined,
        fileName: file.name,
        dryRun: dryRun ? 'true' : 'false',
        map: JSON.stringify({ columns }),
        ...(saveAs.trim() ? { saveMapping: saveAs.trim() } : {}),
      });
      navigate(`/imports/${id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const columnChoices: (readonly [string, string])[] = [
    ['', msg('Leave out')],
    ...(preview?.columns ?? []).map((c) => [c, fieldLabel(c)] as const),
  ];
  const readError = error instanceof ApiError && error.problem.detail ? error.problem.detail : null;

  return (
    <section>
      <h1 tabIndex={-1}>{t('Imports')}</h1>
      <form onSubmit={submit} className="form" aria-labelledby="import-form">
        <h2 id="import-form" className="visually-hidden">
          {t('Import a file')}
        </h2>
        <label>
          {t('File of person records (CSV, Excel workbook or PFIF)')}
          <input
            type="file"
            name="file"
            accept=".csv,.xlsx,.xml,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/xml"
            required
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        {reading && (
          <p className="loading" role="status">
            {t('Reading the file…')}
          </p>
        )}
        {preview && (
          <div data-preview={preview.needsConfirmation ? 'guessed' : 'exact'} aria-live="polite">
            <p>
              {t('{{format}} file, {{count}} rows', {
                format: preview.format === 'xlsx' ? 'Excel' : preview.format.toUpperCase(),
                count: preview.total,
              })}
              {preview.encoding && ` · ${t('encoding')} `}
              {preview.encoding && <bdi dir="ltr">{preview.encoding}</bdi>}
              {preview.sheet && ` · ${t('sheet')} `}
              {preview.sheet && <bdi>{preview.sheet}</bdi>}
            </p>
            {preview.needsConfirmation && (
              <p className="notice">
                {t(
                  'Some columns are not named as athar names them. Check what each column will be read as, correct it if needed, then start a trial run.',
                )}
              </p>
            )}
            {savedMaps.length > 0 && (
              <ChoiceSelect
                label={t('Read the columns with')}
                name="mapping"
                value={mapping}
                choices={[
                  [guessed, msg('athar’s guess')],
                  ...savedMaps.map((m) => [m.name, m.name] as const),
                ]}
                onChange={setMapping}
              />
            )}
            <div className="table-scroll">
              <table className="column-map">
                <caption>{t('What each column will be read as')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('Column in the file')}</th>
                    <th scope="col">{t('First values')}</th>
                    <th scope="col">{t('Read as')}</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.header.map((header, i) => {
                    const guess = preview.guesses.find((g) => g.header === header);
                    const exact = guess?.confidence === 'exact';
                    const column = map[header] ?? '';
                    return (
                      <tr key={header} data-header={header} data-column={column || 'none'}>
                        <th scope="row" dir="auto">
                          {header}
                        </th>
                        <td dir="auto" className="muted">
                          {preview.samples
                            .map((row) => row[i] ?? '')
                            .filter(Boolean)
                            .join(' · ')}
                        </td>
                        <td>
                          {exact ? (
                            t(fieldLabel(column))
                          ) : (
                            <select
                              aria-label={t('Read {{header}} as', { header })}
                              name={`column-${i}`}
                              value={column}
                              onChange={(e) => setMap({ ...map, [header]: e.target.value })}
                              aria-invalid={twice.has(column) || undefined}
                            >
                              {columnChoices.map(([v, l]) => (
                                <option key={v} value={v}>
                                  {t(l)}
                                </option>
                              ))}
                            </select>
                          )}
                          {twice.has(column) && (
                            <span className="field-error"> {t('Two columns are read as this field')}</span>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <label>
              {t('Keep this map under a name, for the next file like it (optional)')}
              <input
                name="saveMapping"
                value={saveAs}
                onChange={(e) => setSaveAs(e.target.value)}
                dir="auto"
                maxLength={64}
              />
            </label>
          </div>
        )}
        <ChoiceSelect
          label={t('What the rows are')}
          name="kind"
          value={kind}
          choices={recordKindNames}
          onChange={setKind}
        />
        <label>
          {t('Source name')}
          <input name="source" value={source} onChange={(e) => setSource(e.target.value)} dir="auto" />
        </label>
        <label className="check">
          <input
            type="checkbox"
            name="dryRun"
            checked={dryRun}
            onChange={(e) => setDryRun(e.target.checked)}
          />
          <span>{t('Trial run: check every row and store nothing')}</span>
        </label>
        <ErrorNote error={error} />
        {readError && (
          <p className="muted" dir="ltr">
            {readError}
          </p>
        )}
        <button type="submit" disabled={busy || !preview || twice.size > 0 || reads === 0}>
          {t('Start the import')}
        </button>
      </form>
      <h2>{t('Recent imports')}</h2>
      <ErrorNote error={recent.error} />
      {recent.data && recent.data.items.length === 0 && <p className="muted">{t('None yet.')}</p>}
      {recent.data && recent.data.items.length > 0 && (
        <ul className="recent-imports">
          {recent.data.items.map((s) => (
            <li key={s.id} data-import-status={s.status}>
              <Link to={`/imports/${s.id}`} dir="auto">
                {s.fileName ?? t('Import')}
              </Link>{' '}
              · {t(apiWord(s.status))}
              {s.dryRun && ` · ${t('trial run')}`} · {formatDate(s.createdAt)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
