import canonicalizeModule from 'canonicalize';
import { describe, expect, it } from 'vitest';
import type { CustodyEventTable, DecisionTable, EvidenceItemTable, RecordTable } from '../store/schema.js';
import {
  coveredColumns,
  coveredTables,
  custodyEntry,
  decisionEntry,
  EntryError,
  encodeEntry,
  identificationEntry,
  linkEntries,
  linkEntry,
  parseEntry,
  RowShapeError,
  recordEntry,
  rowDigest,
} from './entries.js';
import { sha256Hex } from './hash.js';

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string;
const at = '2026-03-01T10:00:00.000Z';
const item: EvidenceItemTable = {
  id: 'ev-1',
  sha256: 'a'.repeat(64),
  size_bytes: 1234,
  media_type: 'image/jpeg',
  original_name_b64: Buffer.from('synthetic.jpg').toString('base64'),
  original_name: 'synthetic.jpg',
  source_id: null,
  width: 10,
  height: 10,
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
  created_at: at,
  created_by: 'user-1',
};
const ingest: CustodyEventTable = {
  id: 'ce-1',
  evidence_id: 'ev-1',
  kind: 'ingested',
  actor: 'user-1',
  at,
  reason: 'synthetic test intake',
  details: null,
  ledger_index: null,
};

describe('log entries', () => {
  it('digests a row as SHA-256 of the canonical JSON of its covered columns', () => {
    const expected = sha256Hex(
      '{"row":{"actor":"user-1","at":"2026-03-01T10:00:00.000Z","details":null,"evidence_id":"ev-1","id":"ce-1","kind":"ingested","reason":"synthetic test intake"},"table":"custody_events"}',
    );
    expect(rowDigest('custody_events', ingest)).toBe(expected);
    // The sequencer's ledger_index is not covered: filling it in does not change the digest.
    expect(rowDigest('custody_events', { ...ingest, ledger_index: 7 })).toBe(expected);
    expect(rowDigest('custody_events', { ...ingest, reason: 'edited' })).not.toBe(expected);
  });

  it('digests rows exactly as the canonicalize package (RFC 8785) would, whatever their values', () => {
    const values = ['', 'عبد الله', 'a"b\\c', '\u2028\u0000', '\ud800', 0, -1, 1.5, 1e21, 2 ** 53, null];
    coveredTables.forEach((table, t) => {
      for (let k = 0; k < 20; k++) {
        const row = Object.fromEntries(
          coveredColumns[table].map((c, i) => [c, values[(i * 7 + k * 3 + t) % values.length]]),
        );
        expect(rowDigest(table, row)).toBe(sha256Hex(canonicalize({ table, row })));
      }
    });
  });

  it('refuses a row that lacks a covered column or holds a value without stable JSON', () => {
    const { reason: _, ...partial } = ingest;
    expect(() => rowDigest('custody_events', partial)).toThrow(/custody_events row lacks column reason/);
    expect(() => rowDigest('custody_events', { ...ingest, details: new Date() })).toThrow(RowShapeError);
    expect(() => rowDigest('custody_events', { ...ingest, details: true })).toThrow(RowShapeError);
  });

  it('logs an ingest naming the evidence by its bytes and vouching for the event and the item', () => {
    const entry = custodyEntry(ingest, item);
    expect(entry).toMatchObject({
      kind: 'custody.ingested',
      actor: 'user-1',
      at,
      subject: { type: 'evidence_item', id: 'ev-1', sha256: 'a'.repeat(64) },
      rows: [
        { table: 'custody_events', id: 'ce-1' },
        { table: 'evidence_items', id: 'ev-1', sha256: rowDigest('evidence_items', item) },
      ],
    });
    const bytes = encodeEntry(entry);
    expect(bytes.toString()).toMatch(
      /^\{"actor":"user-1","at":"2026-03-01T10:00:00.000Z","kind":"custody.ingested","rows":\[/,
    );
    expect(bytes.toString()).not.toContain('synthetic test intake');
    expect(parseEntry(bytes.toString())).toEqual({ ok: true, entry: JSON.parse(bytes.toString()) });
  });

  it('logs a view of an original with the event as the only row', () => {
    const view = { ...ingest, id: 'ce-2', kind: 'viewed_original' };
    expect(custodyEntry(view, { id: 'ev-1', sha256: item.sha256 }).rows.map((r) => r.table)).toEqual([
      'custody_events',
    ]);
    expect(() => custodyEntry(view)).toThrow(/pass the item/);
    expect(() => custodyEntry({ ...view, kind: 'peeked' }, item)).toThrow(/is not one of/);
  });

  it('logs registry changes with their row as subject', () => {
    const record = { id: 'rec-1', created_at: at, created_by: 'user-2' } as RecordTable;
    const full = Object.fromEntries(
      [
        'source_id',
        'external_id',
        'kind',
        'original',
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
      ].map((c) => [c, null]),
    );
    const created = recordEntry('record.imported', { ...record, ...full });
    expect(created).toMatchObject({
      kind: 'record.imported',
      actor: 'user-2',
      subject: { type: 'record', id: 'rec-1' },
    });
    expect(created.subject.sha256).toBe(created.rows[0]?.sha256);

    const link = {
      id: 'l-1',
      record_id: 'rec-1',
      person_id: 'p-1',
      linked_at: at,
      linked_by: 'user-2',
      basis: 'manual',
      decision_id: null,
      note: null,
      unlinked_at: null,
      unlinked_by: null,
      unlink_reason: null,
    };
    expect(linkEntry(link).kind).toBe('link.created');
    const closed = linkEntry({
      ...link,
      unlinked_at: '2026-03-02T00:00:00.000Z',
      unlinked_by: 'user-3',
      unlink_reason: 'x',
    });
    expect(closed).toMatchObject({ kind: 'link.closed', actor: 'user-3', at: '2026-03-02T00:00:00.000Z' });

    // A record moved (closed and opened in one change, by one actor) is one entry vouching for both links; a link
    // closed alone, or opened at another time, keeps its own entry.
    const moveAt = '2026-03-03T00:00:00.000Z';
    const gone = { ...link, unlinked_at: moveAt, unlinked_by: null, unlink_reason: 'model run r-1' };
    const joined = {
      ...link,
      id: 'l-2',
      person_id: 'p-2',
      linked_at: moveAt,
      linked_by: null,
      basis: 'model',
    };
    const alone = { ...link, id: 'l-3', record_id: 'rec-9', unlinked_at: moveAt, unlinked_by: null };
    const later = { ...link, id: 'l-4', record_id: 'rec-8', linked_at: '2026-03-04T00:00:00.000Z' };
    const other = { ...link, id: 'l-5', record_id: 'rec-8', unlinked_at: moveAt, unlinked_by: null };
    const entries = linkEntries([gone, alone, other], [joined, later]);
    expect(entries.map((e) => [e.kind, e.subject.id, e.rows.map((r) => r.id)])).toEqual([
      ['link.closed', 'l-3', ['l-3']],
      ['link.closed', 'l-5', ['l-5']],
      ['link.created', 'l-2', ['l-2', 'l-1']],
      ['link.created', 'l-4', ['l-4']],
    ]);
    expect(entries[2]?.rows[1]?.sha256).toBe(linkEntry(gone).subject.sha256);
    expect(entries[2]).toMatchObject({ actor: 'system', at: moveAt });

    const decision: DecisionTable = {
      id: 'd-2',
      record_a: 'rec-1',
      record_b: 'rec-2',
      decision: 'non_match',
      reviewer_id: 'user-4',
      decided_at: at,
      model_version: null,
      note: null,
      superseded_by: null,
    };
    const previous = { ...decision, id: 'd-1', decision: 'match', superseded_by: 'd-2' };
    const d = decisionEntry(decision, [previous]);
    expect(d).toMatchObject({ kind: 'decision.recorded', status: 'non_match', actor: 'user-4' });
    expect(d.rows.map((r) => r.id)).toEqual(['d-2', 'd-1']);

    const identification = {
      id: 'i-1',
      evidence_id: 'ev-1',
      person_id: 'p-1',
      status: 'confirmed',
      basis: null,
      proposed_by: 'user-2',
      proposed_at: at,
      first_confirmed_by: 'user-3',
      first_confirmed_at: at,
      second_confirmed_by: 'user-4',
      second_confirmed_at: at,
      informed_by: null,
      informed_at: null,
    };
    expect(identificationEntry(identification, { actor: 'user-4', at })).toMatchObject({
      kind: 'identification.status',
      status: 'confirmed',
    });
  });

  it.each([
    ['an unknown kind', { kind: 'custody.stolen' }, /unknown kind/],
    ['a local time', { at: '2026-03-01 10:00' }, /ISO-8601/],
    ['an empty actor', { actor: '' }, /actor/],
    ['an uppercase hash', { subject: { type: 'record', id: 'r', sha256: 'A'.repeat(64) } }, /subject sha256/],
    [
      'an uncovered table',
      { rows: [{ table: 'users', id: 'u', sha256: 'a'.repeat(64) }] },
      /uncovered table/,
    ],
    ['an extra field', { name: 'someone' }, /unknown field name/],
  ])('refuses an entry with %s', (_, change, message) => {
    const good = custodyEntry(ingest, item);
    expect(() => encodeEntry({ ...good, ...change } as never)).toThrow(EntryError);
    expect(() => encodeEntry({ ...good, ...change } as never)).toThrow(message);
  });

  it('writes entries exactly as the canonicalize package (RFC 8785) does, whatever their text', () => {
    const odd = ['', 'é', '\u2028', '"quoted"', 'back\\slash', '\u0001', 'عربي', '\ud83d\ude00', '\ud800'];
    for (const text of odd) {
      const entry = {
        ...custodyEntry(ingest, item),
        actor: `user ${text}`,
        subject: { type: 'evidence_item' as const, id: `ev ${text}`, sha256: 'b'.repeat(64) },
        status: `s${text}`,
      };
      expect(encodeEntry(entry).toString()).toBe(canonicalize(entry));
    }
  });

  it('reads back only canonical JSON', () => {
    const text = encodeEntry(custodyEntry(ingest, item)).toString();
    expect(parseEntry(JSON.stringify(JSON.parse(text), null, 1))).toEqual({
      ok: false,
      detail: 'not in RFC 8785 canonical form',
    });
    expect(parseEntry('{').ok).toBe(false);
  });
});
