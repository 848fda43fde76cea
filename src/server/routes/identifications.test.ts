import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from '../../../test/api.js';
import { syntheticItem } from '../../../test/ledger-fixtures.js';
import { describeEachDialect } from '../../../test/stores.js';
import { newId, nowIso } from '../../ids.js';
import { parseEntry } from '../../ledger/entries.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { SourceRepository } from '../../store/repositories/sources.js';

/** Synthetic evidence rows, persons and records only. */
describeEachDialect('identification and overview routes', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  let reviewer1: ApiClient;
  let reviewer2: ApiClient;
  let reviewer3: ApiClient;
  let liaison: ApiClient;
  let evidenceId: string;
  let otherEvidenceId: string;
  let personId: string;

  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    reviewer1 = await api.as('reviewer');
    reviewer2 = await api.as('reviewer');
    reviewer3 = await api.as('reviewer');
    liaison = await api.as('liaison');
    const db = store().db;
    const item = syntheticItem();
    const other = syntheticItem();
    await db.insertInto('evidence_items').values([item, other]).execute();
    evidenceId = item.id;
    otherEvidenceId = other.id;
    personId = newId();
    await db.insertInto('persons').values({ id: personId, created_at: nowIso(), created_by: null }).execute();
  });
  afterAll(async () => api.close());

  const loggedStatuses = async (id: string) => {
    const rows = await store().db.selectFrom('ledger_queue').select('entry').orderBy('id').execute();
    return rows
      .map((r) => parseEntry(r.entry))
      .flatMap((p) => (p.ok && p.entry.subject.id === id ? [p.entry.status] : []));
  };

  it('is proposed, refused to the same reviewer twice and to the proposer, confirmed by two, informed by a liaison', async () => {
    const missing = await documenter.post('/api/identifications', { evidenceId, personId });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].path).toBe('body.basis');
    expect(
      (await documenter.post('/api/identifications', { evidenceId: 'nope', personId, basis: 'card number' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await liaison.post('/api/identifications', { evidenceId, personId, basis: 'card number' })).statusCode,
    ).toBe(403);

    const proposed = await documenter.post('/api/identifications', {
      evidenceId,
      personId,
      basis: 'detainee and branch numbers on the card match the registry line',
    });
    expect(proposed.statusCode).toBe(201);
    const id = proposed.json().id;
    expect(proposed.json()).toMatchObject({
      status: 'proposed',
      proposedBy: documenter.user!.id,
      confirmations: [],
    });
    const twice = await reviewer1.post('/api/identifications', {
      evidenceId,
      personId,
      basis: 'again, the same',
    });
    expect(twice.statusCode).toBe(409);

    expect((await documenter.post(`/api/identifications/${id}/confirm`, {})).statusCode).toBe(403);
    const informedEarly = await liaison.post(`/api/identifications/${id}/family-informed`, {});
    expect(informedEarly.statusCode).toBe(409);
    expect(informedEarly.json().detail).toMatch(/not confirmed yet/);

    const first = await reviewer1.post(`/api/identifications/${id}/confirm`, { note: 'compared the card' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'proposed', confirmations: [{ by: reviewer1.user!.id }] });
    const same = await reviewer1.post(`/api/identifications/${id}/confirm`, {});
    expect(same.statusCode).toBe(409);
    expect(same.json().detail).toMatch(/already confirmed.*second, different reviewer/);

    const second = await reviewer2.post(`/api/identifications/${id}/confirm`, {});
    expect(second.statusCode).toBe(200);
    expect(second.json().status).toBe('confirmed');
    expect(second.json().confirmations.map((c: { by: string }) => c.by)).toEqual([
      reviewer1.user!.id,
      reviewer2.user!.id,
    ]);
    expect((await reviewer3.post(`/api/identifications/${id}/confirm`, {})).statusCode).toBe(409);
    expect((await reviewer3.post(`/api/identifications/${id}/family-informed`, {})).statusCode).toBe(403);

    const informed = await liaison.post(`/api/identifications/${id}/family-informed`, {
      note: 'met in person',
    });
    expect(informed.statusCode).toBe(200);
    expect(informed.json()).toMatchObject({ status: 'family_informed', informedBy: liaison.user!.id });
    expect((await liaison.post(`/api/identifications/${id}/family-informed`, {})).statusCode).toBe(409);

    const shown = (await reviewer3.get(`/api/identifications/${id}`)).json();
    expect(shown.steps.map((s: { step: string }) => s.step)).toEqual([
      'proposed',
      'confirmed',
      'confirmed',
      'family_informed',
    ]);
    expect(shown.steps[3].note).toBe('met in person');
    const audit = await new AuditRepository(store().db).query({
      subjectType: 'identification',
      subjectId: id,
    });
    expect(audit.map((a) => a.action).sort()).toEqual([
      'identification.confirmed',
      'identification.confirmed',
      'identification.family_informed',
      'identification.proposed',
    ]);
    expect(JSON.stringify(audit)).not.toContain('met in person');
    expect(await loggedStatuses(id)).toEqual(['proposed', 'proposed', 'confirmed', 'family_informed']);
  });

  it('never lets the proposer confirm, and can be rejected', async () => {
    const proposed = await reviewer1.post('/api/identifications', {
      evidenceId: otherEvidenceId,
      personId,
      basis: 'face compared with a family photo',
    });
    const id = proposed.json().id;
    const own = await reviewer1.post(`/api/identifications/${id}/confirm`, {});
    expect(own.statusCode).toBe(409);
    expect(own.json().detail).toMatch(/you proposed this identification/);
    const rejected = await reviewer2.post(`/api/identifications/${id}/reject`, { note: 'different scar' });
    expect(rejected.json().status).toBe('rejected');
    expect((await reviewer3.post(`/api/identifications/${id}/confirm`, {})).statusCode).toBe(409);
    expect(await loggedStatuses(id)).toEqual(['proposed', 'rejected']);
  });

  it('lists identifications by status, with a cursor', async () => {
    const all = (await liaison.get('/api/identifications')).json().items;
    expect(all).toHaveLength(2);
    const informed = (await liaison.get('/api/identifications?status=family_informed')).json().items;
    expect(informed.map((i: { evidenceId: string }) => i.evidenceId)).toEqual([evidenceId]);
    const page = (await liaison.get('/api/identifications?limit=1')).json();
    const next = (await liaison.get(`/api/identifications?limit=1&cursor=${page.nextCursor}`)).json();
    expect([page.items[0].id, next.items[0].id].sort()).toEqual(all.map((i: { id: string }) => i.id).sort());
    expect((await liaison.get('/api/identifications?status=lost')).statusCode).toBe(400);
    expect((await liaison.get('/api/identifications/00000000-0000-7000-8000-000000000000')).statusCode).toBe(
      404,
    );
  });

  it('lists branches and governorates with their aliases', async () => {
    const branches = (await documenter.get('/api/branches')).json().items;
    expect(branches.find((b: { id: string }) => b.id === 'branch-215')).toMatchObject({
      number: 215,
      aliases: expect.any(Array),
    });
    const governorates = (await (await api.as('admin')).get('/api/governorates')).json().items;
    expect(governorates.find((g: { id: string }) => g.id === 'aleppo')).toMatchObject({
      nameEn: 'Aleppo',
      nameAr: 'حلب',
    });
    expect(governorates.find((g: { id: string }) => g.id === 'aleppo').aliases).toContain('Halab');
  });

  it('counts the archive', async () => {
    const source = await new SourceRepository(store().db).findOrCreate('synthetic stats source', 'other');
    const rows: [string | null, string | null, string | null][] = [
      ['damascus', 'branch-215', '2012-05-03'],
      ['damascus', 'branch-215', '2012-11'],
      ['damascus', null, '2013'],
      ['aleppo', 'branch-227', null],
      [null, null, '2011-03-15'],
    ];
    for (const [governorate, branch, arrest] of rows) {
      const id = newId();
      await store()
        .db.insertInto('records')
        .values({
          id,
          source_id: source.id,
          external_id: id,
          kind: 'other',
          original: '{"synthetic":true}',
          full_name: 'SYNTHETIC',
          first_name: null,
          father_name: null,
          grandfather_name: null,
          family_name: null,
          mother_name: null,
          name_normalized: null,
          name_script: 'latn',
          sex: null,
          birth_date: null,
          birth_year: null,
          governorate_id: governorate,
          place_of_origin: null,
          arrest_date: arrest,
          arresting_branch_id: branch,
          detainee_number: null,
          death_date: null,
          forensic_report_number: null,
          notes: null,
          created_at: nowIso(),
          created_by: null,
        })
        .execute();
    }
    expect((await liaison.get('/api/stats')).statusCode).toBe(200);
    const stats = (await (await api.as('admin')).get('/api/stats')).json();
    expect(stats.totals).toEqual({ records: 5, persons: 1, evidence: 2, identifications: 2, reports: 0 });
    expect(stats.byGovernorate).toEqual([
      { id: 'damascus', nameEn: 'Damascus', nameAr: expect.any(String), count: 3 },
      { id: 'aleppo', nameEn: 'Aleppo', nameAr: 'حلب', count: 1 },
    ]);
    expect(stats.byArrestYear).toEqual([
      { year: '2011', count: 1 },
      { year: '2012', count: 2 },
      { year: '2013', count: 1 },
    ]);
    expect(stats.byBranch.map((b: { id: string; count: number }) => [b.id, b.count])).toEqual([
      ['branch-215', 2],
      ['branch-227', 1],
    ]);
    const month = new Date().toISOString().slice(0, 7);
    expect(stats.identificationsByMonth).toEqual([{ month, count: 1 }]);
    expect(stats.activity).toHaveLength(30);
    const today = stats.activity[29];
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today.imported).toBe(5);
  });
});
