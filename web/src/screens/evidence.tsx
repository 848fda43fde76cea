import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError, api, type EvidenceAnswer } from '../api.js';
import { BlurredThumbnail, ErrorNote, Field, Loading, useFormatDate, useLoad } from '../components/common.js';
import { apiWord, asciiDigits, msg } from '../lib/index.js';
import { useSession } from '../session.js';
import { CardProposals } from './card-proposals.js';
import { readFromNames } from './evidence-labels.js';

/** A body is keyed on these four (design.md): never on the detainee number alone. */
const bodyKeys = ['collection', 'branch', 'detaineeNumber', 'examinationNumber'] as const;

const labelNames: Record<string, string> = {
  collection: msg('Collection'),
  branch: msg('Branch number'),
  detaineeNumber: msg('Detainee number'),
  detainee_number: msg('Detainee number'),
  examinationNumber: msg('Examination number'),
  examination_number: msg('Examination number'),
  forensic_report_number: msg('Examination number'),
  branch_number: msg('Branch number'),
  note: msg('Note'),
};

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Asks why, then shows the unblurred view through the short-lived grant the server returns (audited there). */
function Reveal({ evidenceId }: { evidenceId: string }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [grant, setGrant] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setGrant(
        await api.post<{ url: string; expiresAt: string }>(`/api/evidence/${evidenceId}/reveal`, { reason }),
      );
      setAsking(false);
    } catch (err) {
      setError(err);
    }
  }

  if (grant)
    return (
      <figure className="revealed">
        <img src={grant.url} alt={t('Unblurred evidence image')} />
        <figcaption className="muted">
          {t('Shown because you gave a reason; this viewing is recorded.')}{' '}
          <button type="button" className="link-button" onClick={() => setGrant(null)}>
            {t('Blur again')}
          </button>
        </figcaption>
      </figure>
    );
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        {t('Reveal the image')}
      </button>
    );
  return (
    <form onSubmit={submit} className="form reveal-form">
      <p className="warning">
        {t('This image may be graphic. Say why you need to see it; your reason is recorded.')}
      </p>
      <label>
        {t('Reason')}
        <textarea
          name="reason"
          required
          minLength={5}
          // biome-ignore lint/a11y/noAutofocus: the user just asked to reveal; the reason is what comes next.
          autoFocus
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          dir="auto"
        />
      </label>
      <ErrorNote error={error} />
      <div className="buttons">
        <button type="submit">{t('Reveal')}</button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

const labelParts = [
  ['branch', msg('Branch number')],
  ['detainee_number', msg('Detainee number')],
  ['examination_number', msg('Examination number')],
] as const;

/**
 * What a documenter reads on a photo: the body's collection and its three numbers, each with where it was read
 * (card, body, overlay, file name, folder). Recorded as body labels (each a custody event, server-side).
 */
function LabelForm({ evidenceId, onSaved }: { evidenceId: string; onSaved: () => void }) {
  const { t } = useTranslation();
  const empty = { value: '', readFrom: 'card' };
  const [collection, setCollection] = useState('');
  const [parts, setParts] = useState<Record<string, { value: string; readFrom: string }>>({
    branch: empty,
    detainee_number: empty,
    examination_number: empty,
  });
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSaved(false);
    const labels = labelParts
      .map(([part]) => ({ part, ...(parts[part] ?? empty) }))
      .filter((l) => l.value.trim() !== '')
      .map((l) => ({ part: l.part, value: asciiDigits(l.value.trim()), readFrom: l.readFrom }));
    try {
      await api.post(`/api/evidence/${encodeURIComponent(evidenceId)}/body-labels`, {
        collection: collection.trim(),
        labels,
      });
      setSaved(true);
      setParts({ branch: empty, detainee_number: empty, examination_number: empty });
      onSaved();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={submit} className="form label-form" aria-labelledby="label-form-title">
      <h2 id="label-form-title">{t('Record what is written on the card and body')}</h2>
      <label>
        {t('Collection')}
        <input
          name="collection"
          required
          dir="auto"
          value={collection}
          onChange={(e) => setCollection(e.target.value)}
        />
        <span className="hint">{t('Numbers are unique only within one collection of photos.')}</span>
      </label>
      {labelParts.map(([part, label]) => (
        <fieldset key={part} className="label-part">
          <legend>{t(label)}</legend>
          <label>
            {t('As written')}
            <input
              name={`${part}.value`}
              dir="auto"
              inputMode="text"
              value={parts[part]?.value ?? ''}
              onChange={(e) =>
                setParts({ ...parts, [part]: { ...(parts[part] ?? empty), value: e.target.value } })
              }
            />
          </label>
          <label>
            {t('Where it was read')}
            <select
              name={`${part}.readFrom`}
              value={parts[part]?.readFrom ?? 'card'}
              onChange={(e) =>
                setParts({ ...parts, [part]: { ...(parts[part] ?? empty), readFrom: e.target.value } })
              }
            >
              {readFromNames.map(([value, name]) => (
                <option key={value} value={value}>
                  {t(name)}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
      ))}
      <ErrorNote error={error} />
      {error instanceof ApiError && error.problem.detail && (
        <p className="muted" dir="ltr">
          {error.problem.detail}
        </p>
      )}
      {saved && (
        <p role="status" className="ok">
          {t('The labels were recorded.')}
        </p>
      )}
      <button type="submit">{t('Record the labels')}</button>
    </form>
  );
}

export function EvidenceScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can } = useSession();
  const formatDate = useFormatDate();
  const { data, error, loading, reload } = useLoad(
    () => api.get<EvidenceAnswer>(`/api/evidence/${encodeURIComponent(id)}`),
    [id],
  );
  if (loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={error} />;

  const bodies = data.bodyLabels ?? [];
  const metadata = Object.entries(data.metadata ?? {}).filter(([, v]) => v !== null && typeof v !== 'object');

  return (
    <section>
      <h1 tabIndex={-1} dir="auto">
        {data.originalName ?? t('Evidence item')}
      </h1>
      <div className="evidence-view">
        <BlurredThumbnail evidenceId={data.id} />
        {data.graphic && <p className="warning">{t('Marked as graphic.')}</p>}
        {can('evidence:reveal') && <Reveal evidenceId={data.id} />}
        {can('identifications:propose') && (
          <Link to={`/identifications?evidence=${encodeURIComponent(data.id)}`}>
            {t('Propose an identification')}
          </Link>
        )}
        {can('exports:request') && (
          <Link to={`/exports?evidence=${encodeURIComponent(data.id)}`}>{t('Ask for a court bundle')}</Link>
        )}
        <Link to={`/evidence/${encodeURIComponent(data.id)}/rows`}>{t('Rows read from the scan')}</Link>
      </div>

      <h2>{t('Details')}</h2>
      <dl>
        <Field label={t('SHA-256')}>
          <code className="hash">{data.sha256}</code>
        </Field>
        <Field label={t('Type')}>{data.mediaType}</Field>
        {data.width && data.height && (
          <Field label={t('Size')}>
            {data.width} × {data.height}
          </Field>
        )}
        {metadata.map(([k, v]) => (
          <Field key={k} label={k}>
            {text(v)}
          </Field>
        ))}
      </dl>

      <h2>{t('Card identifiers and body labels')}</h2>
      {bodies.length === 0 && (data.annotations ?? []).length === 0 ? (
        <p className="muted">{t('None recorded.')}</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('Label')}</th>
                <th scope="col">{t('Value')}</th>
                <th scope="col">{t('Read from')}</th>
              </tr>
            </thead>
            <tbody>
              {bodies.flatMap((b) => [
                ...bodyKeys
                  .filter((k) => b.body[k])
                  .map((k) => (
                    <tr key={`${b.body.id}-${k}`} className="body-key">
                      <th scope="row">{t(labelNames[k] ?? k)}</th>
                      <td dir="auto">{text(b.body[k])}</td>
                      <td />
                    </tr>
                  )),
                ...b.labels.map((l) => (
                  <tr key={l.id}>
                    <th scope="row">{t(labelNames[l.part] ?? l.part)}</th>
                    <td dir="auto">{l.value}</td>
                    <td>{t(apiWord(l.readFrom))}</td>
                  </tr>
                )),
              ])}
              {(data.annotations ?? []).map((a) => (
                <tr key={a.id}>
                  <th scope="row">{t(labelNames[a.kind] ?? apiWord(a.kind))}</th>
                  <td dir="auto">{a.value}</td>
                  <td>{t(apiWord(a.readFrom))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {can('evidence:annotate') && (
        <CardProposals
          evidenceId={data.id}
          width={data.width}
          height={data.height}
          collection={bodies[0]?.body.collection ?? null}
          onDecided={reload}
        />
      )}
      {can('evidence:annotate') && <LabelForm evidenceId={data.id} onSaved={reload} />}

      <h2>{t('Custody')}</h2>
      <ol className="timeline">
        {(data.custody ?? []).map((c, i) => (
          <li key={c.id ?? i}>
            <span className="when">{formatDate(c.at)}</span>
            <strong>{t(apiWord(c.kind))}</strong>
            {c.actor && <span dir="auto"> · {c.actor}</span>}
            {c.reason && (
              <p dir="auto" className="muted">
                {c.reason}
              </p>
            )}
          </li>
        ))}
      </ol>

      <h2>{t('Tamper-evident log')}</h2>
      <p
        className={data.log?.included ? 'ok' : 'muted'}
        data-log={data.log?.included ? 'included' : 'pending'}
      >
        {data.log?.included
          ? t(
              'Recorded in the log at entry {{index}}; a proof can be checked against the signed checkpoint.',
              {
                index: data.log.index,
              },
            )
          : t('Not yet in a signed checkpoint; it will be included shortly.')}
      </p>

      <h2>{t('Near-duplicates')}</h2>
      {(data.nearDuplicates ?? []).length === 0 ? (
        <p className="muted">{t('None found.')}</p>
      ) : (
        <>
          <p className="muted">
            {t('This item beside each look-alike; a smaller distance is more alike (0 to 256).')}
          </p>
          <ul className="pairs">
            {(data.nearDuplicates ?? []).map((d) => (
              <li key={d.id} className="side-by-side near-pair" data-near={d.id}>
                <figure>
                  <BlurredThumbnail evidenceId={data.id} label={t('This item, blurred')} />
                  <figcaption dir="auto">{data.originalName ?? t('This item')}</figcaption>
                </figure>
                <figure>
                  <Link to={`/evidence/${d.id}`}>
                    <BlurredThumbnail evidenceId={d.id} label={t('Near-duplicate, blurred')} />
                  </Link>
                  <figcaption>
                    <Link to={`/evidence/${d.id}`} dir="auto">
                      {d.originalName ?? d.id}
                    </Link>
                    {typeof d.distance === 'number' && (
                      <span className="muted">
                        {' '}
                        · {t('Distance')} {d.distance}
                      </span>
                    )}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
