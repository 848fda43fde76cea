import { randomBytes } from 'node:crypto';
import { newId } from '../src/ids.js';
import { custodyEntry, type LogEntry, recordEntry } from '../src/ledger/entries.js';
import { ed25519Signer, generateEd25519Key, type NoteSigner } from '../src/ledger/note.js';
import { normalize } from '../src/names/index.js';
import { appendLogEntry } from '../src/services/ledger/ledger.js';
import type { CustodyEventTable, EvidenceItemTable, RecordTable } from '../src/store/schema.js';
import type { Db, Store } from '../src/store/store.js';

/** Synthetic rows for log tests: no real person, file or place. */
let clockMs = Date.parse('2026-03-01T10:00:00.000Z');
export function tick(): string {
  clockMs += 1000;
  return new Date(clockMs).toISOString();
}

export function syntheticItem(sha256 = randomBytes(32).toString('hex')): EvidenceItemTable {
  return {
    id: newId(),
    sha256,
    size_bytes: 1000,
    media_type: 'image/jpeg',
    original_name_b64: Buffer.from('synthetic.jpg').toString('base64'),
    original_name: 'synthetic.jpg',
    source_id: null,
    width: 8,
    height: 8,
    orientation: null,
    pdq: null,
    pdq_quality: null,
    metadata: null,
    decodable: 1,
    decode_error: null,
    graphic: 1,
    thumbnail_sha256: null,
    blurred_sha256: null,
    decode_status: 'decoded',
    ingest_run_id: null,
    created_at: tick(),
    created_by: 'user-synthetic',
  };
}

export function syntheticEvent(item: EvidenceItemTable, kind = 'ingested'): CustodyEventTable {
  return {
    id: newId(),
    evidence_id: item.id,
    kind,
    actor: 'user-synthetic',
    at: tick(),
    reason: 'synthetic test',
    details: null,
    ledger_index: null,
  };
}

/**
 * Ingests a synthetic item: the item, its custody event and the log entry, in one transaction; the entry staged
 * unless `log` says how else it goes to the log.
 */
export async function ingest(
  store: Store,
  sha256?: string,
  log: (trx: Db, entry: LogEntry) => Promise<void> = appendLogEntry,
): Promise<{ item: EvidenceItemTable; event: CustodyEventTable }> {
  const item = syntheticItem(sha256);
  const event = syntheticEvent(item);
  await store.transaction(async (trx) => {
    await trx.insertInto('evidence_items').values(item).execute();
    await trx.insertInto('custody_events').values(event).execute();
    await log(trx, custodyEntry(event, item));
  });
  return { item, event };
}

export async function recordCustody(
  store: Store,
  item: EvidenceItemTable,
  kind: string,
): Promise<CustodyEventTable> {
  const event = syntheticEvent(item, kind);
  await store.transaction(async (trx) => {
    await trx.insertInto('custody_events').values(event).execute();
    await appendLogEntry(trx, custodyEntry(event, item));
  });
  return event;
}

export async function syntheticSource(db: Db): Promise<string> {
  const id = newId();
  await db
    .insertInto('sources')
    .values({
      id,
      name: `synthetic source ${id}`,
      kind: 'list',
      description: null,
      reliability_notes: null,
      created_at: tick(),
      created_by: null,
    })
    .execute();
  return id;
}

export function syntheticRecord(sourceId: string, n: number): RecordTable {
  return {
    id: newId(),
    source_id: sourceId,
    external_id: `row-${n}`,
    kind: 'registry_line',
    original: JSON.stringify({ full_name: `Synthetic Person ${n}` }),
    full_name: `Synthetic Person ${n}`,
    first_name: null,
    father_name: null,
    grandfather_name: null,
    family_name: null,
    mother_name: null,
    name_normalized: normalize(`Synthetic Person ${n}`),
    name_script: 'latn',
    sex: null,
    birth_date: null,
    birth_year: 1980 + (n % 20),
    governorate_id: null,
    place_of_origin: null,
    arrest_date: null,
    arresting_branch_id: null,
    detainee_number: String(1000 + n),
    death_date: null,
    forensic_report_number: null,
    notes: null,
    created_at: tick(),
    created_by: 'user-synthetic',
  };
}

/** Imports synthetic records with their log entries in one transaction. */
export async function importRecords(store: Store, count: number): Promise<RecordTable[]> {
  const sourceId = await syntheticSource(store.db);
  const records = Array.from({ length: count }, (_, i) => syntheticRecord(sourceId, i));
  await store.transaction(async (trx) => {
    for (const r of records) {
      await trx.insertInto('records').values(r).execute();
      await appendLogEntry(trx, recordEntry('record.imported', r));
    }
  });
  return records;
}

export function testSigner(
  name = 'athar.test/log',
): NoteSigner & { key: ReturnType<typeof generateEd25519Key> } {
  const key = generateEd25519Key(name);
  return Object.assign(ed25519Signer(key), { key });
}
