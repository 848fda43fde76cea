import { expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import { custodyEntry, identificationEntry, publicEntry } from '../src/ledger/entries.js';
import { appendLogEntry } from '../src/services/ledger/ledger.js';
import { describeEachDialect } from './stores.js';

/**
 * What the public log says (issue 21, docs/decisions.md): an account's id or `system` as the actor, never an
 * operator's login name; the day, not the moment, of a reveal, a download of an original or a family being told.
 * The row digests are untouched, so verification is as before. Synthetic ids and names only.
 */
const at = '2026-05-04T13:14:15.161Z';
const item = {
  id: newId(),
  sha256: 'a'.repeat(64),
  size_bytes: 10,
  media_type: 'image/jpeg',
  original_name_b64: null,
  source_id: null,
  created_at: at,
  created_by: null,
};
const event = (kind: string, actor: string) => ({
  id: newId(),
  evidence_id: item.id,
  kind,
  actor,
  at,
  reason: 'synthetic reason',
  details: null,
});

it("names an operator's login name as `operator`, keeps account ids and system, and keeps the rows' digests", () => {
  const byLogin = custodyEntry(event('ingested', 'synthetic.login'), item);
  const shown = publicEntry(byLogin);
  expect(shown.actor).toBe('operator');
  expect(shown.rows).toEqual(byLogin.rows);
  expect(shown.at).toBe(at);
  const userId = newId();
  expect(publicEntry(custodyEntry(event('annotated', userId), item)).actor).toBe(userId);
  expect(publicEntry(custodyEntry(event('annotated', 'system'), item)).actor).toBe('system');
});

it('gives the day only of a reveal, a download of an original and a family being told', () => {
  for (const kind of ['viewed_unblurred', 'viewed_original']) {
    expect(publicEntry(custodyEntry(event(kind, newId()), item)).at).toBe('2026-05-04T00:00:00.000Z');
  }
  expect(publicEntry(custodyEntry(event('annotated', newId()), item)).at).toBe(at);
  const identification = {
    id: newId(),
    evidence_id: item.id,
    person_id: newId(),
    status: 'family_informed',
    basis: null,
    proposed_by: null,
    proposed_at: at,
    first_confirmed_by: null,
    first_confirmed_at: null,
    second_confirmed_by: null,
    second_confirmed_at: null,
    informed_by: null,
    informed_at: at,
  };
  const told = identificationEntry(identification, { actor: newId(), at });
  expect(publicEntry(told).at).toBe('2026-05-04T00:00:00.000Z');
  const proposed = identificationEntry({ ...identification, status: 'proposed' }, { actor: newId(), at });
  expect(publicEntry(proposed).at).toBe(at);
});

describeEachDialect('public log entries as staged', (store) => {
  it('stages the public form of every entry', async () => {
    await store().transaction((trx) =>
      appendLogEntry(trx, custodyEntry(event('viewed_unblurred', 'synthetic.login'), item)),
    );
    const rows = await store().db.selectFrom('ledger_queue').select('entry').execute();
    const staged = rows.map((r) => JSON.parse(r.entry) as { actor: string; at: string; kind: string });
    const mine = staged.filter((e) => e.kind === 'custody.viewed_unblurred');
    expect(mine.at(-1)).toMatchObject({ actor: 'operator', at: '2026-05-04T00:00:00.000Z' });
    expect(JSON.stringify(staged)).not.toContain('synthetic.login');
  });
});
