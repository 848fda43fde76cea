import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, type ExportRequest, type List } from '../api.js';
import { ChoiceSelect } from '../components/choice-select.js';
import { ErrorNote, Loading, useFormatDate } from '../components/common.js';
import { usePoll } from '../components/poll.js';
import { apiWord, bytesText, msg, purposes } from '../lib/index.js';
import { useSession } from '../session.js';

const scopes = [
  ['person', msg('A court bundle of one person')],
  ['evidence', msg('A court bundle of evidence items')],
  ['ingest_run', msg('A court bundle of an ingest run')],
  ['export', msg('A data export of the registry')],
] as const;
type ScopeKind = (typeof scopes)[number][0];

const exportKinds = [
  ['records', msg('Records')],
  ['persons', msg('Persons')],
  ['evidence', msg('Evidence items')],
] as const;

const exportFormats = [
  ['csv', msg('CSV (opens in a spreadsheet; imports again)')],
  ['json', msg('JSON')],
  ['pfif', msg('PFIF 1.4 (people-finder exchange)')],
] as const;

/** States in which the file is still coming: the list is polled until none is left. */
const moving = new Set(['approved', 'building']);

function purposeName(p: string): string {
  return purposes.find(([value]) => value === p)?.[1] ?? p;
}

/** What a request holds, in words: a bundle's scope or an export's kind and format. */
function WhatItHolds({ request }: { request: ExportRequest }) {
  const { t } = useTranslation();
  const what = request.scope;
  if (what.kind === 'export') {
    const kind = exportKinds.find(([k]) => k === what.what)?.[1] ?? what.what;
    return (
      <>
        {t('Data export')}: {t(kind)} · <span dir="ltr">{what.format.toUpperCase()}</span>
      </>
    );
  }
  const scope = what.scope;
  if (scope.kind === 'person')
    return (
      <>
        {t('Court bundle of a person')}:{' '}
        <Link to={`/persons/${encodeURIComponent(scope.personId)}`} dir="ltr">
          {scope.personId}
        </Link>
      </>
    );
  if (scope.kind === 'ingest_run')
    return (
      <>
        {t('Court bundle of an ingest run')}: <span dir="ltr">{scope.ingestRunId}</span>
      </>
    );
  return <>{t('Court bundle of {{count}} evidence items', { count: scope.evidenceIds.length })}</>;
}

function RequestForm({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const initial: ScopeKind = params.get('person')
    ? 'person'
    : params.get('evidence')
      ? 'evidence'
      : params.get('run')
        ? 'ingest_run'
        : 'person';
  const [kind, setKind] = useState<ScopeKind>(initial);
  const [personId, setPersonId] = useState(params.get('person') ?? '');
  const [evidenceIds, setEvidenceIds] = useState((params.get('evidence') ?? '').split(',').join('\n'));
  const [runId, setRunId] = useState(params.get('run') ?? '');
  const [what, setWhat] = useState('records');
  const [format, setFormat] = useState('csv');
  const [purpose, setPurpose] = useState('criminal_proceedings');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  function body() {
    if (kind === 'export') return { kind: 'export', what, format };
    const scope =
      kind === 'person'
        ? { kind, personId: personId.trim() }
        : kind === 'ingest_run'
          ? { kind, ingestRunId: runId.trim() }
          : {
              kind,
              evidenceIds: evidenceIds
                .split(/[\s,]+/)
                .map((s) => s.trim())
                .filter(Boolean),
            };
    return { kind: 'bundle', scope };
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSent(false);
    try {
      await api.post('/api/exports', { what: body(), purpose, reason });
      setSent(true);
      setReason('');
      onSent();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="form narrow" aria-labelledby="ask-export">
      <h2 id="ask-export">{t('Ask for an export')}</h2>
      <p className="muted">
        {t(
          'Nothing leaves athar on one person’s word: another investigator or an admin approves each request. The file can then be fetched by you only, until it expires.',
        )}
      </p>
      <fieldset>
        <legend>{t('What to export')}</legend>
        {scopes.map(([value, label]) => (
          <label key={value} className="check">
            <input
              type="radio"
              name="scope"
              value={value}
              checked={kind === value}
              onChange={() => setKind(value)}
            />
            <span>{t(label)}</span>
          </label>
        ))}
      </fieldset>
      {kind === 'person' && (
        <label>
          {t('Person id')}
          <input
            name="personId"
            required
            value={personId}
            onChange={(e) => setPersonId(e.target.value)}
            dir="ltr"
          />
        </label>
      )}
      {kind === 'evidence' && (
        <label>
          {t('Evidence item ids, one per line')}
          <textarea
            name="evidenceIds"
            required
            rows={4}
            value={evidenceIds}
            onChange={(e) => setEvidenceIds(e.target.value)}
            dir="ltr"
          />
        </label>
      )}
      {kind === 'ingest_run' && (
        <label>
          {t('Ingest run id')}
          <input name="runId" required value={runId} onChange={(e) => setRunId(e.target.value)} dir="ltr" />
        </label>
      )}
      {kind === 'export' && (
        <>
          <ChoiceSelect
            label={t('Which table')}
            name="what"
            value={what}
            choices={exportKinds}
            onChange={setWhat}
          />
          <ChoiceSelect
            label={t('Format')}
            name="format"
            value={format}
            choices={exportFormats}
            onChange={setFormat}
          />
        </>
      )}
      <ChoiceSelect
        label={t('Purpose')}
        name="purpose"
        value={purpose}
        choices={purposes}
        onChange={setPurpose}
        hint={
          <span className="muted">
            {t('Only records whose families consented to this purpose are exported.')}
          </span>
        }
      />
      <label>
        {t('Reason (kept in the audit log and in the bundle)')}
        <textarea
          name="reason"
          required
          minLength={10}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          dir="auto"
        />
      </label>
      <ErrorNote error={error} />
      {sent && (
        <p role="status" className="ok-note">
          {t('Asked. It waits for another person’s approval.')}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {t('Ask for approval')}
      </button>
    </form>
  );
}

function Decide({ request, onDone }: { request: ExportRequest; onDone: () => void }) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function decide(verb: 'approve' | 'refuse') {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/api/exports/${encodeURIComponent(request.id)}/${verb}`, { note: note || undefined });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="decide">
      <label>
        {t('Note on your decision (optional)')}
        <input name="note" value={note} onChange={(e) => setNote(e.target.value)} dir="auto" />
      </label>
      <ErrorNote error={error} />
      <div className="actions-row">
        <button type="button" disabled={busy} onClick={() => void decide('approve')}>
          {t('Approve')}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void decide('refuse')}>
          {t('Refuse')}
        </button>
      </div>
    </div>
  );
}

function RequestCard({
  request,
  mine,
  onChange,
}: {
  request: ExportRequest;
  mine: boolean;
  onChange: () => void;
}) {
  const { t, i18n } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <li className="card" data-status={request.status} data-id={request.id}>
      <div>
        <p>
          <strong>{t(apiWord(request.status))}</strong> · <WhatItHolds request={request} />
        </p>
        <p className="muted">
          {t('Asked by {{name}} on {{date}} for {{purpose}}', {
            name: request.requestedByName ?? request.requestedBy,
            date: formatDate(request.requestedAt),
            purpose: t(purposeName(request.purpose)),
          })}
        </p>
        <blockquote dir="auto">{request.reason}</blockquote>
        {request.decidedAt && (
          <p className="muted">
            {t(
              request.status === 'refused'
                ? 'Refused by {{name}} on {{date}}'
                : 'Approved by {{name}} on {{date}}',
              {
                name: request.decidedByName ?? request.decidedBy ?? '',
                date: formatDate(request.decidedAt),
              },
            )}
            {request.decisionNote && (
              <>
                {' · '}
                <span dir="auto">{request.decisionNote}</span>
              </>
            )}
          </p>
        )}
        {request.failure && (
          <p className="error-note">{t('The file could not be made: {{why}}', { why: request.failure })}</p>
        )}
        {request.status === 'ready' && mine && (
          <div className="file-ready">
            <a
              href={`/api/exports/${encodeURIComponent(request.id)}/file`}
              download={request.fileName ?? undefined}
            >
              {t('Fetch the file')}
            </a>{' '}
            <span className="muted">
              {bytesText(request.fileBytes, i18n.language)} ·{' '}
              {t('until {{date}}', { date: formatDate(request.expiresAt ?? '') })}
            </span>
            <p className="muted">
              {t('SHA-256 of the file')}: <code dir="ltr">{request.fileSha256}</code>
            </p>
            {request.scope.kind === 'bundle' && (
              <p className="muted">
                {t('Anyone can check the bundle offline with')}{' '}
                <code dir="ltr">athar bundle verify FILE</code>
              </p>
            )}
          </div>
        )}
        {request.status === 'requested' && !mine && <Decide request={request} onDone={onChange} />}
      </div>
    </li>
  );
}

export function ExportsScreen() {
  const { t } = useTranslation();
  const { session, can } = useSession();
  const { data, error, reload } = usePoll(
    () => api.get<List<ExportRequest>>('/api/exports'),
    (d) => d.items.some((r) => moving.has(r.status)),
    [],
  );
  const me = session?.user.id;
  const awaiting = (data?.items ?? []).filter((r) => r.requestedBy !== me && r.status === 'requested');
  const mine = (data?.items ?? []).filter((r) => r.requestedBy === me);
  return (
    <section>
      <h1 tabIndex={-1}>{t('Exports and court bundles')}</h1>
      <ErrorNote error={error} />
      {!data && !error && <Loading />}
      {can('exports:approve') && (
        <>
          <h2>{t('Awaiting your decision')}</h2>
          {data && awaiting.length === 0 && <p className="muted">{t('None yet.')}</p>}
          <ul className="cards" aria-label={t('Awaiting your decision')}>
            {awaiting.map((r) => (
              <RequestCard key={r.id} request={r} mine={false} onChange={reload} />
            ))}
          </ul>
        </>
      )}
      {can('exports:request') && (
        <>
          <RequestForm onSent={reload} />
          <h2>{t('Your requests')}</h2>
          {data && mine.length === 0 && <p className="muted">{t('None yet.')}</p>}
          <ul className="cards" aria-live="polite" aria-label={t('Your requests')}>
            {mine.map((r) => (
              <RequestCard key={r.id} request={r} mine onChange={reload} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
