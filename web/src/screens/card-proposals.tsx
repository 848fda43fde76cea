import { type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api.js';
import { BlurredThumbnail, ErrorNote, useLoad } from '../components/common.js';
import { apiWord, asciiDigits, msg } from '../lib/index.js';

interface Proposal {
  id: string;
  part: string;
  value: string;
  confidence: number;
  readFrom: string;
  box: { x: number; y: number; width: number; height: number };
  engine: string;
  status: 'proposed' | 'confirmed' | 'corrected' | 'rejected';
  correctedValue: string | null;
}

type Choice = { action: 'confirm' } | { action: 'correct'; value: string } | { action: 'reject' };

const partNames: Record<string, string> = {
  branch: msg('Branch number'),
  detainee_number: msg('Detainee number'),
  examination_number: msg('Examination number'),
};

const choiceNames = {
  confirm: msg('as read'),
  correct: msg('corrected'),
  reject: msg('rejected'),
} as const;

/**
 * The numbers the card reader proposed for a photo (docs/ocr.md), for a reviewer to confirm, correct or reject —
 * keyboard first: ↓/↑ (or j/k) move between numbers, Enter or c takes the number as read, e corrects it, r rejects
 * it, Ctrl+Enter records the decisions. The photo stays blurred; the box shows where each number was read.
 * Confirmed and corrected numbers become the body's labels (read from the card) and join the tracing loop.
 */
export function CardProposals({
  evidenceId,
  width,
  height,
  collection: knownCollection,
  onDecided,
}: {
  evidenceId: string;
  width: number | null | undefined;
  height: number | null | undefined;
  collection: string | null;
  onDecided: () => void;
}) {
  const { t } = useTranslation();
  const { data, error, reload } = useLoad(
    () => api.get<{ items: Proposal[] }>(`/api/evidence/${encodeURIComponent(evidenceId)}/ocr`),
    [evidenceId],
  );
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [focused, setFocused] = useState(0);
  const [collection, setCollection] = useState(knownCollection ?? '');
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const rows = useRef<(HTMLLIElement | null)[]>([]);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);

  const items = data?.items ?? [];
  if (items.length === 0) return error ? <ErrorNote error={error} /> : null;
  const open = items.filter((p) => p.status === 'proposed');
  const chosen = open.filter((p) => choices[p.id]);

  const choose = (p: Proposal, c: Choice | undefined) => {
    setSaved(false);
    setChoices((all) => {
      const next = { ...all };
      if (c) next[p.id] = c;
      else delete next[p.id];
      return next;
    });
  };
  const move = (to: number) => {
    const i = Math.max(0, Math.min(open.length - 1, to));
    setFocused(i);
    rows.current[i]?.focus();
  };

  async function record() {
    setSaveError(null);
    const decisions = chosen.map((p) => {
      const c = choices[p.id] as Choice;
      return c.action === 'correct'
        ? { proposal: p.id, action: c.action, value: asciiDigits(c.value.trim()) }
        : { proposal: p.id, action: c.action };
    });
    if (decisions.length === 0) return;
    try {
      await api.post(`/api/evidence/${encodeURIComponent(evidenceId)}/ocr/decisions`, {
        collection: collection.trim(),
        decisions,
      });
      setChoices({});
      setSaved(true);
      reload();
      onDecided();
    } catch (err) {
      setSaveError(err);
    }
  }

  const onRowKey = (e: KeyboardEvent<HTMLLIElement>, p: Proposal, i: number) => {
    if (e.target !== e.currentTarget) return; // typing in the correction field
    if (e.key === 'ArrowDown' || e.key === 'j') move(i + 1);
    else if (e.key === 'ArrowUp' || e.key === 'k') move(i - 1);
    else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void record();
    else if (e.key === 'Enter' || e.key === 'c') {
      choose(p, { action: 'confirm' });
      move(i + 1);
    } else if (e.key === 'r') {
      choose(p, { action: 'reject' });
      move(i + 1);
    } else if (e.key === 'e') {
      choose(p, { action: 'correct', value: p.value });
      setTimeout(() => inputs.current[i]?.focus(), 0);
    } else if (e.key === 'Escape') choose(p, undefined);
    else return;
    e.preventDefault();
  };

  const boxStyle = (p: Proposal) =>
    width && height
      ? {
          left: `${(p.box.x / width) * 100}%`,
          top: `${(p.box.y / height) * 100}%`,
          width: `${(p.box.width / width) * 100}%`,
          height: `${(p.box.height / height) * 100}%`,
        }
      : undefined;
  const current = open[focused];

  return (
    <section className="card-proposals" aria-labelledby="card-proposals-title">
      <h2 id="card-proposals-title">{t('Numbers read from the card')}</h2>
      <p className="muted">
        {t(
          'The card reader proposes; a person decides. ↓ ↑ move, Enter takes a number as read, e corrects it, r rejects it, Ctrl+Enter records the decisions.',
        )}
      </p>
      <div className="side-by-side">
        <figure
          className="boxed-photo"
          style={width && height ? { aspectRatio: `${width} / ${height}` } : undefined}
        >
          <BlurredThumbnail
            evidenceId={evidenceId}
            label={t('The photo, blurred; the box marks the number')}
          />
          {current && boxStyle(current) && (
            <span className="ocr-box" style={boxStyle(current)} aria-hidden="true" />
          )}
        </figure>
        <div>
          {open.length > 0 && (
            <>
              <label>
                {t('Collection')}
                <input
                  name="ocr-collection"
                  required
                  dir="auto"
                  value={collection}
                  onChange={(e) => setCollection(e.target.value)}
                />
              </label>
              <ol className="proposals" aria-label={t('Numbers to decide')}>
                {open.map((p, i) => {
                  const c = choices[p.id];
                  return (
                    <li
                      key={p.id}
                      ref={(el) => {
                        rows.current[i] = el;
                      }}
                      tabIndex={i === focused ? 0 : -1}
                      className={i === focused ? 'proposal current' : 'proposal'}
                      data-proposal={p.id}
                      data-choice={c?.action ?? 'none'}
                      onFocus={() => setFocused(i)}
                      onKeyDown={(e) => onRowKey(e, p, i)}
                      aria-label={`${t(partNames[p.part] ?? p.part)} ${p.value}`}
                    >
                      <span className="part">{t(partNames[p.part] ?? p.part)}</span>{' '}
                      <bdi dir="ltr" className="value">
                        {p.value}
                      </bdi>{' '}
                      <span className="muted">
                        {t('confidence {{p}}%', { p: Math.round(p.confidence * 100) })} ·{' '}
                        {t(apiWord(p.readFrom))}
                      </span>
                      <span className="buttons">
                        <button type="button" onClick={() => choose(p, { action: 'confirm' })}>
                          {t('As read')}
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => choose(p, { action: 'correct', value: p.value })}
                        >
                          {t('Correct')}
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => choose(p, { action: 'reject' })}
                        >
                          {t('Reject')}
                        </button>
                      </span>
                      {c?.action === 'correct' && (
                        <label>
                          {t('The number as you read it')}
                          <input
                            ref={(el) => {
                              inputs.current[i] = el;
                            }}
                            name={`correct-${p.id}`}
                            dir="ltr"
                            value={c.value}
                            onChange={(e) => choose(p, { action: 'correct', value: e.target.value })}
                            onKeyDown={(e) => {
                              if (e.key === 'Enter') {
                                e.preventDefault();
                                if (e.ctrlKey || e.metaKey) void record();
                                else move(i + 1);
                              } else if (e.key === 'Escape') rows.current[i]?.focus();
                            }}
                          />
                        </label>
                      )}
                      {c && c.action !== 'correct' && (
                        <span className="chosen"> · {t(choiceNames[c.action])}</span>
                      )}
                    </li>
                  );
                })}
              </ol>
              <ErrorNote error={saveError} />
              {saveError instanceof ApiError && saveError.problem.detail && (
                <p className="muted" dir="ltr">
                  {saveError.problem.detail}
                </p>
              )}
              <button
                type="button"
                onClick={() => void record()}
                disabled={chosen.length === 0 || !collection.trim()}
              >
                {t('Record {{count}} decisions', { count: chosen.length })}
              </button>
            </>
          )}
          {saved && (
            <p role="status" className="ok">
              {t('The decisions were recorded; confirmed numbers are now the body’s labels.')}
            </p>
          )}
          {items.length > open.length && (
            <ul className="decided">
              {items
                .filter((p) => p.status !== 'proposed')
                .map((p) => (
                  <li key={p.id} data-decided={p.status}>
                    {t(partNames[p.part] ?? p.part)} <bdi dir="ltr">{p.correctedValue ?? p.value}</bdi> ·{' '}
                    {t(apiWord(p.status))}
                  </li>
                ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
