import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, type PersonAnswer, type RecordItem } from '../api.js';
import {
  BlurredThumbnail,
  ErrorNote,
  Field,
  Loading,
  useFormatDate,
  useLoad,
  usePlaces,
} from '../components/common.js';
import { apiWord, comparisonOf, fieldLabel, msg, recordFields } from '../lib/index.js';
import { useSession } from '../session.js';
import { LinkRecord, MergePerson, SplitPerson, UnlinkRecord } from './person-links.js';
import { statusLabel } from './search.js';

const eventTypes: Record<string, string> = {
  birth: msg('Birth'),
  arrest: msg('Arrest'),
  abduction: msg('Abduction'),
  held_at: msg('Held at'),
  transfer: msg('Transfer'),
  trial: msg('Trial'),
  sighting: msg('Seen'),
  release: msg('Release'),
  death: msg('Death'),
  burial: msg('Burial'),
  found: msg('Found'),
  residence: msg('Residence'),
};

const identificationStatuses: Record<string, string> = {
  proposed: msg('Proposed'),
  confirmed: msg('Confirmed'),
  family_informed: msg('Family informed'),
  rejected: msg('Rejected'),
};

export function eventLabel(type: string): string {
  return eventTypes[type] ?? type;
}

export function identificationStatus(status: string): string {
  return identificationStatuses[status] ?? status;
}

/** One record as its source gave it: original script, its own direction, and where it came from. */
export function RecordCard({ record, title }: { record: RecordItem; title?: string }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const placeName = usePlaces(can('places:read'));
  const formatDate = useFormatDate();
  const original = (record.original ?? {}) as Record<string, unknown>;
  return (
    <article className="record-card" aria-label={title ?? t('Record')}>
      {title && <h3>{title}</h3>}
      <p className="muted" dir="auto">
        {t('Source')}: {record.source?.name ?? t('unknown')}
        {record.kind ? ` · ${t(apiWord(record.kind))}` : ''}
      </p>
      <dl>
        {recordFields.map((f) => {
          const raw = original[comparisonOf(f)] ?? original[f] ?? record[f];
          if (raw === undefined || raw === null || raw === '') return null;
          const value = String(raw);
          return (
            <Field key={f} label={t(fieldLabel(f))}>
              {/Date$/.test(f)
                ? formatDate(value)
                : /(governorate|branch)Id$/.test(f)
                  ? placeName(value)
                  : value}
            </Field>
          );
        })}
      </dl>
      <p>
        <Link to={`/records/${record.id}`}>{t('Open the record')}</Link>
      </p>
      {record.link && (
        <p className="muted" data-link-basis={record.link.basis}>
          {t('Linked')}: {t(apiWord(record.link.basis))} · {formatDate(record.link.linkedAt)}
          {record.link.model && (
            <>
              {' · '}
              {t('probability {{p}}% against record {{record}} (model {{version}})', {
                p: Math.round(record.link.model.probability * 100),
                record: record.link.model.matchedRecord,
                version: record.link.model.modelVersion,
              })}
            </>
          )}
          {record.link.note && <span dir="auto"> · {record.link.note}</span>}
        </p>
      )}
    </article>
  );
}

export function PersonScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can } = useSession();
  const formatDate = useFormatDate();
  const { data, error, loading, reload } = useLoad(
    () => api.get<PersonAnswer>(`/api/persons/${encodeURIComponent(id)}`),
    [id],
  );
  const [splitOff, setSplitOff] = useState<string | null>(null);

  if (loading && !data) return <Loading />;
  if (!data) return <ErrorNote error={error} />;

  const relations = data.relations.filter((r) => !r.retractedAt);
  const events = [...data.events].sort((a, b) => (a.dateStart ?? '').localeCompare(b.dateStart ?? ''));
  return (
    <section>
      <h1 tabIndex={-1} dir="auto">
        {data.displayName}
      </h1>
      <p className="status-tag">{t(statusLabel(data.status))}</p>
      {data.mergedFrom && (
        <p className="warnings" role="status" data-merged-from={data.mergedFrom}>
          {t('The person {{old}} you asked for was merged into this one; links to it keep working.', {
            old: data.mergedFrom,
          })}
        </p>
      )}
      {can('exports:request') && (
        <p>
          <Link to={`/exports?person=${encodeURIComponent(data.id)}`}>{t('Ask for a court bundle')}</Link>
        </p>
      )}

      <h2>{t('Timeline')}</h2>
      {events.length === 0 ? (
        <p className="muted">{t('No events recorded.')}</p>
      ) : (
        <ol className="timeline">
          {events.map((e) => (
            <li key={e.id}>
              <span className="when">
                {formatDate(e.dateStart) || t('date unknown')}
                {e.dateEnd && e.dateEnd !== e.dateStart ? ` – ${formatDate(e.dateEnd)}` : ''}
              </span>
              <strong>{t(eventTypes[e.type] ?? e.type)}</strong>
              {e.place && <span dir="auto"> · {e.place}</span>}
              {e.description && (
                <p dir="auto" className="muted">
                  {e.description}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}

      <h2>{t('Records')}</h2>
      <p className="muted">{t('Each record as its source gave it, in its original script.')}</p>
      <div className="side-by-side">
        {data.records.map((r) => (
          <div key={r.id} className="record-with-tools">
            <RecordCard record={r} />
            {can('persons:link') && data.records.length > 1 && (
              <UnlinkRecord person={data} record={r} onDone={reload} />
            )}
          </div>
        ))}
      </div>
      {can('persons:link') && (
        <details className="person-tools" data-person-tools>
          <summary>{t('Link, merge or split')}</summary>
          <LinkRecord person={data} onDone={reload} />
          <MergePerson person={data} onDone={reload} />
          <SplitPerson
            person={data}
            onDone={(newId) => {
              setSplitOff(newId);
              reload();
            }}
          />
        </details>
      )}
      {splitOff && (
        <p role="status" className="ok">
          {t('The records were split off into a new person:')}{' '}
          <Link to={`/persons/${splitOff}`}>{t('Open')}</Link>
        </p>
      )}

      <h2>{t('Linked evidence')}</h2>
      {can('identifications:propose') && (
        <p>
          <Link to={`/identifications?person=${encodeURIComponent(data.id)}`}>
            {t('Propose an identification')}
          </Link>
        </p>
      )}
      {data.identifications.length === 0 ? (
        <p className="muted">{t('No evidence is linked to this person.')}</p>
      ) : (
        <ul className="thumbs">
          {data.identifications.map((i) => (
            <li key={i.id}>
              <Link to={`/evidence/${i.evidenceId}`}>
                <BlurredThumbnail evidenceId={i.evidenceId} />
                <span>{t(identificationStatus(i.status))}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {relations.length > 0 && (
        <>
          <h2>{t('Known relatives and relations')}</h2>
          <p className="muted">
            {t(
              'A person recorded as a relative is a different person: linking the two as one is refused unless forced with a reason.',
            )}
          </p>
          <ul>
            {relations.map((r) => (
              <li key={r.id}>
                {t(apiWord(r.type))}
                {' · '}
                <Link to={`/persons/${r.personA === data.id ? r.personB : r.personA}`}>{t('Open')}</Link>
                {r.certainty && ` · ${t(apiWord(r.certainty))}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {data.assertions.length > 0 && (
        <>
          <h2>{t('What sources say')}</h2>
          <ul>
            {data.assertions.map((a) => (
              <li key={a.id}>
                {t(apiWord(a.kind))} · {formatDate(a.assertedAt)}
                {a.statement && (
                  <span dir="auto" className="muted">
                    {' '}
                    · {a.statement}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
