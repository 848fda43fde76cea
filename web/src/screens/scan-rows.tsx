import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../api.js';
import { ErrorNote, Loading, useLoad } from '../components/common.js';
import { asciiDigits, fieldLabel, msg } from '../lib/index.js';
import { useSession } from '../session.js';

/** The fields a scanned row proposes, in the order a documenter reads them. */
const rowFieldNames = [
  'fullName',
  'firstName',
  'fatherName',
  'grandfatherName',
  'familyName',
  'detaineeNumber',
  'rowNumber',
  'date',
] as const;
type RowFieldName = (typeof rowFieldNames)[number];
type RowFields = Partial<Record<RowFieldName, string>>;

const extraLabels: Record<string, string> = { rowNumber: msg('Row number on the list') };
const statusLabels: Record<string, string> = {
  proposed: msg('Proposed'),
  accepted: msg('Accepted'),
  corrected: msg('Corrected'),
  rejected: msg('Rejected'),
};

interface ScanRow {
  id: string;
  engine: string;
  page: number;
  index: number;
  box: { x: number; y: number; width: number; height: number };
  text: string;
  fields: RowFields;
  confidence: number;
  status: string;
  correctedFields: RowFields | null;
  decidedBy: string | null;
  recordId: string | null;
}

interface RowsAnswer {
  evidenceId: string;
  originalName: string | null;
  sourceName: string;
  engine: string | null;
  reads: {
    engine: string;
    outcome: string;
    reason: string | null;
    pageWidth: number | null;
    pageHeight: number | null;
    /** Pages read (a PDF or multi-page TIFF has several), and each page's size its rows' boxes are in. */
    pages: number;
    pageSizes: { width: number; height: number }[] | null;
  }[];
  items: ScanRow[];
}

interface ReadSummary {
  problems: { outcome: string; reason: string }[];
}

const label = (name: string) => extraLabels[name] ?? fieldLabel(name);

/** Keys that move or decide, unless the documenter is typing. */
function typing(target: EventTarget | null): boolean {
  const tag = (target as HTMLElement | null)?.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/**
 * The page of the focused row, with its box outlined (boxes are in pixels of their page as read); a document of
 * several pages says which page is shown.
 */
function PageView({
  evidenceId,
  page,
  pages,
  size,
  focused,
}: {
  evidenceId: string;
  page: number;
  pages: number;
  size: { width: number; height: number } | null;
  focused: ScanRow | undefined;
}) {
  const { t } = useTranslation();
  const pct = (v: number, of: number) => `${((100 * v) / of).toFixed(2)}%`;
  return (
    <figure className="scan-page">
      {pages > 1 && (
        <p className="scan-page-number" role="status">
          {t('Page {{page}} of {{count}}', { page, count: pages })}
        </p>
      )}
      <div className="scan-page-frame">
        <img
          src={`/api/evidence/${encodeURIComponent(evidenceId)}/page?page=${page}`}
          alt={pages > 1 ? t('The scanned page {{page}}', { page }) : t('The scanned page')}
        />
        {focused && size && (
          <div
            className="scan-box"
            aria-hidden="true"
            style={{
              left: pct(focused.box.x, size.width),
              top: pct(focused.box.y, size.height),
              width: pct(focused.box.width, size.width),
              height: pct(focused.box.height, size.height),
            }}
          />
        )}
      </div>
      <figcaption className="muted">{t('The outline shows where the chosen row was read.')}</figcaption>
    </figure>
  );
}

function EditRow({
  row,
  onSave,
  onCancel,
}: {
  row: ScanRow;
  onSave: (fields: RowFields) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<RowFields>({ ...row.fields });
  function submit(e: FormEvent) {
    e.preventDefault();
    const out: RowFields = {};
    for (const name of rowFieldNames) {
      const v = (fields[name] ?? '').trim();
      out[name] = name === 'detaineeNumber' || name === 'rowNumber' || name === 'date' ? asciiDigits(v) : v;
    }
    onSave(out);
  }
  return (
    <form
      className="form scan-edit"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
      aria-label={t('Correct row {{index}}', { index: row.index })}
    >
      {rowFieldNames.map((name, i) => (
        <label key={name}>
          {t(label(name))}
          <input
            name={name}
            dir="auto"
            value={fields[name] ?? ''}
            // biome-ignore lint/a11y/noAutofocus: the documenter pressed e to edit this row; its first field is next.
            autoFocus={i === 0}
            onChange={(e) => setFields((f) => ({ ...f, [name]: e.target.value }))}
          />
        </label>
      ))}
      <div className="buttons">
        <button type="submit">{t('Save as corrected')}</button>
        <button type="button" className="secondary" onClick={onCancel}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * A scanned registry page beside the rows read on it (docs/ocr.md): the documenter moves with j/k, accepts (a),
 * rejects (r) or edits (e) each row; accepted and corrected rows become records of the document's source.
 */
export function ScanRowsScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can } = useSession();
  const mayDecide = can('records:write') && can('evidence:annotate');
  const { data, error, loading, reload } = useLoad(
    () => api.get<RowsAnswer>(`/api/evidence/${encodeURIComponent(id)}/rows`),
    [id],
  );
  const [rows, setRows] = useState<ScanRow[]>([]);
  const [focus, setFocus] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [sourceName, setSourceName] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [reading, setReading] = useState(false);
  const busy = useRef(false);
  const listRef = useRef<HTMLOListElement>(null);

  // The rows of the newest read (a new reader or engine version reads the page again; its rows are shown).
  const shownEngine = data?.reads.find((r) => r.outcome === 'proposed' || r.outcome === 'no_rows')?.engine;
  useEffect(() => {
    if (!data) return;
    setRows(data.items.filter((r) => r.engine === shownEngine));
    setSourceName((s) => s || data.sourceName);
  }, [data, shownEngine]);

  const decide = useCallback(
    async (row: ScanRow | undefined, action: 'accept' | 'reject' | 'correct', fields?: RowFields) => {
      if (!row || !mayDecide || busy.current || row.status !== 'proposed') return;
      busy.current = true;
      setActionError(null);
      try {
        const answer = await api.post<{ items: ScanRow[]; errors: { row: string; error: string }[] }>(
          `/api/evidence/${encodeURIComponent(id)}/rows/decisions`,
          {
            ...(sourceName.trim() ? { sourceName: sourceName.trim() } : {}),
            decisions: [{ row: row.id, action, ...(fields ? { fields } : {}) }],
          },
        );
        setRows(answer.items.filter((r) => r.engine === row.engine));
        setEditing(null);
        if (answer.errors.length > 0) setProblems(answer.errors.map((e) => e.error));
        else {
          setProblems([]);
          setFocus((f) => Math.min(f + 1, answer.items.length - 1));
        }
      } catch (err) {
        setActionError(err);
      } finally {
        busy.current = false;
      }
    },
    [id, mayDecide, sourceName],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || editing) return;
      const row = rows[focus];
      if (e.key === 'j' || e.key === 'ArrowDown') setFocus((f) => Math.min(f + 1, rows.length - 1));
      else if (e.key === 'k' || e.key === 'ArrowUp') setFocus((f) => Math.max(f - 1, 0));
      else if (e.key === 'a') void decide(row, 'accept');
      else if (e.key === 'r') void decide(row, 'reject');
      else if (e.key === 'e' && row?.status === 'proposed' && mayDecide) setEditing(row.id);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, focus, decide, editing, mayDecide]);

  useEffect(() => {
    listRef.current
      ?.querySelector<HTMLElement>(`[data-index="${focus}"]`)
      ?.scrollIntoView?.({ block: 'nearest' });
  }, [focus]);

  async function readPage() {
    setReading(true);
    setActionError(null);
    try {
      const summary = await api.post<ReadSummary>(`/api/evidence/${encodeURIComponent(id)}/rows/read`, {});
      setProblems(summary.problems.map((p) => `${p.outcome}: ${p.reason}`));
      reload();
    } catch (err) {
      setActionError(err);
    } finally {
      setReading(false);
    }
  }

  if (loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={error} />;
  const read = data.reads.find((r) => r.outcome === 'proposed' || r.outcome === 'no_rows');
  const focused = rows[focus];
  // The page shown is the focused row's: j / k run through the rows in page order, so the page follows them.
  const pageNo = focused?.page ?? 1;
  const pages = read?.pages ?? 1;
  const size =
    read?.pageSizes?.[pageNo - 1] ??
    (pageNo === 1 && read?.pageWidth && read.pageHeight
      ? { width: read.pageWidth, height: read.pageHeight }
      : null);
  const undecided = rows.filter((r) => r.status === 'proposed').length;

  return (
    <section>
      <h1 tabIndex={-1} dir="auto">
        {t('Rows read from {{name}}', { name: data.originalName ?? t('Evidence item') })}
      </h1>
      <p>
        <Link to={`/evidence/${encodeURIComponent(id)}`}>{t('Back to the evidence item')}</Link>
      </p>
      <ErrorNote error={actionError} />
      {problems.length > 0 && (
        <ul className="warning" role="alert">
          {problems.map((p) => (
            <li key={p} dir="auto">
              {p}
            </li>
          ))}
        </ul>
      )}
      {!read && (
        <div>
          <p role="status">{t('This item has not been read as a scanned page.')}</p>
          {data.reads.map((r) => (
            <p key={r.engine} className="muted" dir="auto">
              {r.outcome}: {r.reason}
            </p>
          ))}
          {can('evidence:annotate') && (
            <button type="button" onClick={readPage} disabled={reading || !data.engine}>
              {reading ? t('Reading the page…') : t('Read as a scanned page')}
            </button>
          )}
          {!data.engine && <p className="muted">{t('OCR is off on this server.')}</p>}
        </div>
      )}
      {read && (
        <>
          <p className="muted">
            {t('Keys: j / k move, a accept, r reject, e edit (Enter saves, Escape leaves).')}{' '}
            <span role="status">{t('{{count}} rows still to decide', { count: undecided })}</span>
          </p>
          {mayDecide && (
            <label className="scan-source">
              {t('Records go to the source')}
              <input
                name="sourceName"
                className="scan-source-input"
                dir="auto"
                value={sourceName}
                onChange={(e) => setSourceName(e.target.value)}
              />
            </label>
          )}
          <div className="scan-rows">
            <PageView evidenceId={id} page={pageNo} pages={pages} size={size} focused={focused} />
            {rows.length === 0 ? (
              <p role="status">{t('No line on this page looked like a row of names.')}</p>
            ) : (
              <ol className="scan-row-list" ref={listRef} aria-label={t('Rows read on the page')}>
                {rows.map((row, i) => {
                  const shown = row.correctedFields ?? row.fields;
                  return (
                    <li
                      key={row.id}
                      data-index={i}
                      data-status={row.status}
                      aria-current={i === focus ? 'true' : undefined}
                      className={i === focus ? 'focused' : undefined}
                    >
                      <button type="button" className="link-button scan-row-pick" onClick={() => setFocus(i)}>
                        <span dir="auto" className="scan-row-name">
                          {shown.fullName ?? row.text}
                        </span>
                      </button>
                      <dl className="scan-row-fields">
                        {rowFieldNames
                          .filter((n) => n !== 'fullName' && shown[n])
                          .map((n) => (
                            <div key={n} className="field-row">
                              <dt>{t(label(n))}</dt>
                              <dd dir="auto">{shown[n]}</dd>
                            </div>
                          ))}
                      </dl>
                      <p className="muted">
                        {pages > 1 && <>{t('page {{page}}', { page: row.page })} · </>}
                        {t(statusLabels[row.status] ?? row.status)} ·{' '}
                        {t('confidence {{value}}%', { value: Math.round(row.confidence * 100) })}
                        {row.recordId && (
                          <>
                            {' · '}
                            <Link to={`/records/${encodeURIComponent(row.recordId)}`}>{t('The record')}</Link>
                          </>
                        )}
                      </p>
                      {editing === row.id ? (
                        <EditRow
                          row={row}
                          onSave={(fields) => void decide(row, 'correct', fields)}
                          onCancel={() => setEditing(null)}
                        />
                      ) : (
                        row.status === 'proposed' &&
                        mayDecide && (
                          <div className="buttons">
                            <button type="button" onClick={() => void decide(row, 'accept')}>
                              {t('Accept')}
                            </button>
                            <button
                              type="button"
                              className="secondary"
                              onClick={() => {
                                setFocus(i);
                                setEditing(row.id);
                              }}
                            >
                              {t('Correct')}
                            </button>
                            <button
                              type="button"
                              className="secondary"
                              onClick={() => void decide(row, 'reject')}
                            >
                              {t('Reject')}
                            </button>
                          </div>
                        )
                      )}
                    </li>
                  );
                })}
              </ol>
            )}
          </div>
        </>
      )}
    </section>
  );
}
