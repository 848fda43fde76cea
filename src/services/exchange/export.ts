import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type ConsentPurpose, consentPurposes, currentConsent } from '../../domain/consent.js';
import {
  type ExportEncoder,
  type ExportFormat,
  type ExportKind,
  type ExportRow,
  encoderFor,
  pfifNoteOf,
} from '../../exchange/export-formats.js';
import { type PfifNote, pfifStatuses } from '../../exchange/pfif.js';
import { nowIso } from '../../ids.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import type { RecordTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { AppContext } from '../context.js';

/**
 * `athar export`: records, persons or evidence metadata to CSV, JSON or PFIF 1.4, streamed page by page (keyset
 * pages on the primary key, so a million rows cost a million rows, not a million offsets). A family report's
 * record goes out only when the report's latest consent choice for the export's purpose is yes; without a purpose
 * no family report goes out. Contact details are never read. The file is written under a temporary name and
 * renamed when complete, owner-only.
 */

export interface ExportRequest {
  kind: ExportKind;
  format: ExportFormat;
  out: string;
  purpose?: ConsentPurpose | null;
  pageSize?: number;
}

export interface ExportReport {
  kind: ExportKind;
  format: ExportFormat;
  out: string;
  purpose: string | null;
  exported: number;
  /** Family-report records (or persons with nothing else) left out for consent. */
  withheld: number;
  bytes: number;
  ms: number;
}

export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}

/** Buffered writes with back-pressure: one write per MiB. */
class TextSink {
  private readonly stream: fs.WriteStream;
  private parts: string[] = [];
  private size = 0;
  bytes = 0;
  private failure: Error | undefined;
  constructor(file: string) {
    this.stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    this.stream.on('error', (e) => {
      this.failure = e;
    });
  }
  async push(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    const chunk = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) =>
      this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())),
    );
    if (this.failure) throw this.failure;
  }
  destroy(): void {
    this.stream.destroy();
  }
}

/** The family-report records whose consent covers `purpose` now (latest choice per report, as consent.ts says). */
export async function consentingRecords(db: Db, purpose: string | null): Promise<Set<string>> {
  if (!purpose) return new Set();
  const reports = await db.selectFrom('family_reports').select(['id', 'record_id']).execute();
  const choices = await db.selectFrom('report_consents').selectAll().where('purpose', '=', purpose).execute();
  const byReport = new Map<string, typeof choices>();
  for (const c of choices) byReport.set(c.report_id, [...(byReport.get(c.report_id) ?? []), c]);
  const out = new Set<string>();
  for (const r of reports) {
    const history = (byReport.get(r.id) ?? []).map((c) => ({
      id: c.id,
      purpose: c.purpose,
      granted: c.granted === 1,
      recordedAt: c.recorded_at,
      recordedBy: c.recorded_by,
    }));
    if (currentConsent(history)[purpose as ConsentPurpose]) out.add(r.record_id);
  }
  return out;
}

async function placeNames(
  db: Db,
): Promise<{ governorate: Map<string, string>; branch: Map<string, string> }> {
  const g = await db.selectFrom('governorates').select(['id', 'name_en']).execute();
  const b = await db.selectFrom('branches').select(['id', 'name_en']).execute();
  return {
    governorate: new Map(g.map((r) => [r.id, r.name_en])),
    branch: new Map(b.map((r) => [r.id, r.name_en])),
  };
}

type RecordRow = RecordBase & {
  source_name: string;
  person_id: string | null;
};

/**
 * A keyset page of records by primary key, and nothing joined: with the table's statistics SQLite planned the join
 * to sources from the (small) sources table and sorted every later row for each page — quadratic. Source names
 * come from a map, persons from one indexed lookup per page.
 */
const recordColumns = [
  'id',
  'source_id',
  'kind',
  'external_id',
  'full_name',
  'first_name',
  'father_name',
  'grandfather_name',
  'family_name',
  'mother_name',
  'sex',
  'birth_date',
  'birth_year',
  'governorate_id',
  'place_of_origin',
  'arrest_date',
  'arresting_branch_id',
  'detainee_number',
  'death_date',
  'forensic_report_number',
  'notes',
  'created_at',
] as const;

type RecordBase = Pick<RecordTable, (typeof recordColumns)[number]>;

function recordPage(db: Db, after: string, limit: number) {
  return db.selectFrom('records').select(recordColumns).where('id', '>', after).orderBy('id').limit(limit);
}

/**
 * A page of records with their source's name and person, read as arrays (Store.rows: no object per row from the
 * driver, then one object literal per row here — half the time of a million-row export went to the driver's
 * objects and their copies).
 */
async function recordPageRows(
  store: AppContext['store'],
  after: string,
  limit: number,
  sources: Map<string, string>,
): Promise<RecordRow[]> {
  const arrays = await store.rows(recordPage(store.db, after, limit).compile());
  const persons = await new RecordLinkRepository(store.db).activePersons(arrays.map((a) => a[0] as string));
  const text = (v: unknown) => (v === null || v === undefined ? null : (v as string));
  return arrays.map((a) => ({
    id: a[0] as string,
    source_id: a[1] as string,
    kind: a[2] as RecordTable['kind'],
    external_id: text(a[3]),
    full_name: text(a[4]),
    first_name: text(a[5]),
    father_name: text(a[6]),
    grandfather_name: text(a[7]),
    family_name: text(a[8]),
    mother_name: text(a[9]),
    sex: a[10] as RecordTable['sex'],
    birth_date: text(a[11]),
    birth_year: a[12] as RecordTable['birth_year'],
    governorate_id: text(a[13]),
    place_of_origin: text(a[14]),
    arrest_date: text(a[15]),
    arresting_branch_id: text(a[16]),
    detainee_number: text(a[17]),
    death_date: text(a[18]),
    forensic_report_number: text(a[19]),
    notes: text(a[20]),
    created_at: a[21] as string,
    source_name: sources.get(a[1] as string) ?? (a[1] as string),
    person_id: persons.get(a[0] as string) ?? null,
  }));
}

async function sourceNames(db: Db): Promise<Map<string, string>> {
  return new Map(
    (await db.selectFrom('sources').select(['id', 'name']).execute()).map((r) => [r.id, r.name]),
  );
}

function recordExportRow(r: RecordRow, places: Awaited<ReturnType<typeof placeNames>>): ExportRow {
  return {
    record_id: r.id,
    source: r.source_name,
    full_name: r.full_name,
    first_name: r.first_name,
    father_name: r.father_name,
    grandfather_name: r.grandfather_name,
    family_name: r.family_name,
    mother_name: r.mother_name,
    sex: r.sex,
    birth_date: r.birth_date,
    birth_year: r.birth_year,
    governorate: r.governorate_id ? (places.governorate.get(r.governorate_id) ?? r.governorate_id) : null,
    place_of_origin: r.place_of_origin,
    arrest_date: r.arrest_date,
    arresting_branch: r.arresting_branch_id
      ? (places.branch.get(r.arresting_branch_id) ?? r.arresting_branch_id)
      : null,
    detainee_number: r.detainee_number,
    death_date: r.death_date,
    forensic_report_number: r.forensic_report_number,
    notes: r.notes,
    kind: r.kind,
    external_id: r.external_id,
    person_id: r.person_id,
    created_at: r.created_at,
  };
}

/** PFIF-status claims about these records (and persons), by record or person id. */
async function claimsAbout(db: Db, column: 'record_id' | 'person_id', ids: readonly string[], chunk: number) {
  const out = new Map<
    string,
    { id: string; kind: string; statement: string | null; asserted_at: string; source: string | null }[]
  >();
  for (let i = 0; i < ids.length; i += chunk) {
    const rows = await db
      .selectFrom('assertions as a')
      .leftJoin('sources as s', 's.id', 'a.source_id')
      .select([
        'a.id',
        'a.kind',
        'a.statement',
        'a.asserted_at',
        'a.record_id',
        'a.person_id',
        's.name as source',
      ])
      .where(`a.${column}`, 'in', ids.slice(i, i + chunk))
      .where('a.kind', 'in', [...pfifStatuses])
      .orderBy('a.asserted_at')
      .execute();
    for (const r of rows) {
      const key = (column === 'record_id' ? r.record_id : r.person_id) as string;
      out.set(key, [...(out.get(key) ?? []), r]);
    }
  }
  return out;
}

export async function exportData(ctx: AppContext, request: ExportRequest): Promise<ExportReport> {
  const start = performance.now();
  const purpose = request.purpose ?? null;
  if (purpose && !(consentPurposes as readonly string[]).includes(purpose)) {
    throw new ExportError(`purpose must be one of ${consentPurposes.join(', ')}`);
  }
  const db = ctx.store.db;
  const exportedAt = nowIso(ctx.clock);
  const domain =
    (await db.selectFrom('meta').select('value').where('key', '=', 'ledger.vkey').executeTakeFirst())?.value
      .split('/')[0]
      ?.split('+')[0] ?? 'athar.localhost';
  const encoder: ExportEncoder = (() => {
    try {
      return encoderFor(request.format, { kind: request.kind, exportedAt, purpose, domain });
    } catch (error) {
      throw new ExportError((error as Error).message);
    }
  })();
  const out = path.resolve(request.out);
  if (fs.existsSync(out))
    throw new ExportError(`${request.out} exists already: an export never writes over a file`);
  const partial = `${out}.partial`;
  await fsp.mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
  const sink = new TextSink(partial);
  const pageSize = request.pageSize ?? 5000;
  const chunk = Math.floor(ctx.store.capabilities.maxParameters / 2);
  let exported = 0;
  let withheld = 0;
  try {
    const allowed = await consentingRecords(db, purpose);
    const places = await placeNames(db);
    const sources = await sourceNames(db);
    await sink.push(encoder.head());
    if (request.kind === 'records') {
      for (let after = ''; ; ) {
        const page = await recordPageRows(ctx.store, after, pageSize, sources);
        if (page.length === 0) break;
        after = (page.at(-1) as RecordRow).id;
        const kept = page.filter((r) => r.kind !== 'family_report' || allowed.has(r.id));
        withheld += page.length - kept.length;
        const claims =
          request.format === 'pfif'
            ? await claimsAbout(
                db,
                'record_id',
                kept.map((r) => r.id),
                chunk,
              )
            : undefined;
        let text = '';
        for (const r of kept) {
          const row = recordExportRow(r, places);
          const notes = claims
            ? (claims.get(r.id) ?? []).flatMap((c) => pfifNoteOf(domain, c, `${domain}/record.${r.id}`) ?? [])
            : undefined;
          text += encoder.item(row, notes);
        }
        exported += kept.length;
        await sink.push(text);
        if (page.length < pageSize) break;
      }
    } else if (request.kind === 'persons') {
      for (let after = ''; ; ) {
        const persons = await db
          .selectFrom('persons')
          .select(['id', 'created_at'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(pageSize)
          .execute();
        if (persons.length === 0) break;
        after = (persons.at(-1) as { id: string }).id;
        const ids = persons.map((p) => p.id);
        const linked = new Map<string, RecordRow[]>();
        for (let i = 0; i < ids.length; i += chunk) {
          const rows = await db
            .selectFrom('record_links as l')
            .innerJoin('records as r', 'r.id', 'l.record_id')
            .selectAll('r')
            .select(['l.person_id', 'l.linked_at'])
            .where('l.person_id', 'in', ids.slice(i, i + chunk))
            .where('l.unlinked_at', 'is', null)
            .orderBy('l.linked_at')
            .orderBy('r.id')
            .execute();
          for (const r of rows)
            linked.set(r.person_id, [...(linked.get(r.person_id) ?? []), r as unknown as RecordRow]);
        }
        const claims = request.format === 'pfif' ? await claimsAbout(db, 'person_id', ids, chunk) : undefined;
        const recordClaims =
          request.format === 'pfif'
            ? await claimsAbout(
                db,
                'record_id',
                [...linked.values()].flat().map((r) => r.id),
                chunk,
              )
            : undefined;
        let text = '';
        for (const p of persons) {
          const all = linked.get(p.id) ?? [];
          const records = all.filter((r) => r.kind !== 'family_report' || allowed.has(r.id));
          withheld += all.length - records.length;
          if (records.length === 0) continue;
          const first = recordExportRow(records[0] as RecordRow, places);
          const names = [
            ...new Set(
              records.map((r) => r.full_name).filter((n): n is string => !!n && n !== first.full_name),
            ),
          ];
          const row: ExportRow = {
            ...first,
            person_id: p.id,
            created_at: p.created_at,
            record_count: records.length,
            record_ids: records.map((r) => r.id).join(' '),
            alternate_names: names.join('\n'),
          };
          let notes: PfifNote[] | undefined;
          if (claims && recordClaims) {
            const pid = `${domain}/person.${p.id}`;
            notes = [
              ...(claims.get(p.id) ?? []),
              ...records.flatMap((r) => recordClaims.get(r.id) ?? []),
            ].flatMap((c) => pfifNoteOf(domain, c, pid) ?? []);
          }
          text += encoder.item(row, notes);
          exported++;
        }
        await sink.push(text);
        if (persons.length < pageSize) break;
      }
    } else {
      for (let after = ''; ; ) {
        const page = await db
          .selectFrom('evidence_items as e')
          .select([
            'e.id',
            'e.sha256',
            'e.size_bytes',
            'e.media_type',
            'e.original_name',
            'e.width',
            'e.height',
            'e.pdq',
            'e.pdq_quality',
            'e.graphic',
            'e.decode_status',
            'e.source_id',
            'e.ingest_run_id',
            'e.created_at',
          ])
          .where('e.id', '>', after)
          .orderBy('e.id')
          .limit(pageSize)
          .execute();
        if (page.length === 0) break;
        after = (page.at(-1) as { id: string }).id;
        let text = '';
        for (const e of page)
          text += encoder.item({
            ...e,
            source: e.source_id ? (sources.get(e.source_id) ?? e.source_id) : null,
          });
        exported += page.length;
        await sink.push(text);
        if (page.length < pageSize) break;
      }
    }
    await sink.push(encoder.tail());
    await sink.close();
    await fsp.rename(partial, out);
  } catch (error) {
    sink.destroy();
    await fsp.rm(partial, { force: true });
    throw error;
  }
  return {
    kind: request.kind,
    format: request.format,
    out,
    purpose,
    exported,
    withheld,
    bytes: sink.bytes,
    ms: Math.round(performance.now() - start),
  };
}
