import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from '../../../test/api.js';
import { describeEachDialect } from '../../../test/stores.js';
import { newId, nowIso } from '../../ids.js';
import { readModelFile } from '../../services/batch/linkage-model-file.js';
import { ReviewService } from '../../services/review/review.js';
import { ReviewRecordRepository } from '../../store/repositories/review-records.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import type { Store } from '../../store/store.js';
import { presentReviewRecord } from '../presenters/review-record.js';

interface SyntheticRecord {
  first: string;
  father?: string;
  family: string;
  birthYear?: number;
  governorate?: string;
  branch?: string;
  arrestDate?: string;
}

/** Stores synthetic records (no real person), with forensic fields that only some roles may see. */
async function storeRecords(store: Store, rows: SyntheticRecord[]): Promise<string[]> {
  const source = await new SourceRepository(store.db).findOrCreate('synthetic review source', 'other');
  const ids: string[] = [];
  for (const r of rows) {
    const id = newId();
    ids.push(id);
    await store.db
      .insertInto('records')
      .values({
        id,
        source_id: source.id,
        external_id: id,
        kind: 'registry_line',
        original: JSON.stringify({ synthetic: true }),
        full_name: null,
        first_name: r.first,
        father_name: r.father ?? null,
        grandfather_name: null,
        family_name: r.family,
        mother_name: null,
        name_normalized: null,
        name_script: /[a-z]/i.test(r.first) ? 'latn' : 'ar',
        sex: 'm',
        birth_date: null,
        birth_year: r.birthYear ?? null,
        governorate_id: r.governorate ?? null,
        place_of_origin: null,
        arrest_date: r.arrestDate ?? null,
        arresting_branch_id: r.branch ?? null,
        detainee_number: null,
        death_date: null,
        forensic_report_number: 'SYNTHETIC-FR-1',
        notes: 'SYNTHETIC forensic note',
        created_at: nowIso(),
        created_by: null,
      })
      .execute();
  }
  return ids;
}

describeEachDialect('review queue routes', (store) => {
  let api: ApiHarness;
  let reviewer: ApiClient;
  let documenter: ApiClient;
  let liaison: ApiClient;
  let ids: string[];
  const model = readModelFile();

  beforeAll(async () => {
    api = await createApi(store());
    reviewer = await api.as('reviewer');
    documenter = await api.as('documenter');
    liaison = await api.as('liaison');
    ids = await storeRecords(store(), [
      {
        first: 'محمد',
        father: 'احمد',
        family: 'المصري',
        birthYear: 1980,
        governorate: 'damascus',
        branch: 'branch-215',
        arrestDate: '2012-05-03',
      },
      {
        first: 'Mohammad',
        father: 'Ahmad',
        family: 'Al-Masri',
        birthYear: 1980,
        governorate: 'damascus',
        branch: 'branch-215',
        arrestDate: '2012-05',
      },
      { first: 'خالد', father: 'سعيد', family: 'العمر', governorate: 'aleppo', arrestDate: '2013-01-20' },
      { first: 'Khaled', father: 'Said', family: 'Al-Omar', governorate: 'aleppo' },
      { first: 'سامر', family: 'الحلبي', branch: 'branch-235', arrestDate: '2013' },
      { first: 'Samer', family: 'Al-Halabi' },
    ]);
    // Stored without an explanation: the queue explains them from the two records with the current model.
    await new ReviewService(store()).propose([
      // Priorities given, as the tracing loop gives them, so the order is the test's.
      {
        recordA: ids[0]!,
        recordB: ids[1]!,
        probability: 0.97,
        matchWeight: 8,
        modelVersion: model.version,
        priority: 3,
      },
      {
        recordA: ids[2]!,
        recordB: ids[3]!,
        probability: 0.9,
        matchWeight: 6,
        modelVersion: model.version,
        priority: 2,
      },
      {
        recordA: ids[4]!,
        recordB: ids[5]!,
        probability: 0.6,
        matchWeight: 1,
        modelVersion: model.version,
        priority: 1,
      },
    ]);
  });
  afterAll(async () => api.close());

  it('lists pairs by status, highest priority first, with a cursor', async () => {
    const investigator = await api.as('investigator');
    const first = await investigator.get('/api/review/pairs?status=open&limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().items.map((p: { probability: number }) => p.probability)).toEqual([0.97, 0.9]);
    const rest = await investigator.get(`/api/review/pairs?limit=2&cursor=${first.json().nextCursor}`);
    expect(rest.json().items.map((p: { probability: number }) => p.probability)).toEqual([0.6]);
    expect(first.json().items[0].a).toMatchObject({ forensicReportNumber: 'SYNTHETIC-FR-1' });
    expect((await investigator.get('/api/review/pairs?cursor=zzz')).statusCode).toBe(400);
    expect((await documenter.get('/api/review/pairs')).statusCode).toBe(403);
  });

  it('gives the next pair with both records, the waterfall and each field’s agreement', async () => {
    const res = await reviewer.get('/api/review/next');
    expect(res.statusCode).toBe(200);
    const { pair } = res.json();
    expect(pair.probability).toBe(0.97);
    expect([pair.a.id, pair.b.id].sort()).toEqual([ids[0], ids[1]].sort());
    expect(pair.a.source.name).toBe('synthetic review source');
    expect(pair.a).toHaveProperty('notes', 'SYNTHETIC forensic note');
    expect(pair.explanation.steps.length).toBeGreaterThan(5);
    expect(pair.explanation.steps[0]).toEqual(
      expect.objectContaining({
        field: expect.any(String),
        level: expect.any(String),
        weight: expect.any(Number),
      }),
    );
    expect(typeof pair.explanation.prior).toBe('number');
    expect(pair.agreement.family_name).toBe('agree');
    expect(pair.agreement.birth_date).toBe('agree');
    expect(pair.agreement.death_date).toBe('missing');
  });

  it('hides notes and the forensic report number from roles without forensic:read', async () => {
    const res = await reviewer.get('/api/review/next');
    expect(res.json().pair.a).toHaveProperty('forensicReportNumber');
    // Every role that reads the queue today has forensic:read; the presenter decides by permission, so hold it to that.
    const row = (await new ReviewRecordRepository(store().db).getMany([ids[0]!])).get(ids[0]!)!;
    expect(presentReviewRecord(row, true)).toMatchObject({ notes: 'SYNTHETIC forensic note' });
    const shown = presentReviewRecord(row, false);
    expect(shown).not.toHaveProperty('notes');
    expect(shown).not.toHaveProperty('forensicReportNumber');
    expect(JSON.stringify(shown)).not.toContain('SYNTHETIC forensic');
  });

  it('decides, undoes, and never proposes a rejected pair again', async () => {
    const [match, reject] = (await reviewer.get('/api/review/pairs')).json().items;
    expect(
      (await reviewer.post(`/api/review/pairs/${match.id}/decision`, { verdict: 'perhaps' })).statusCode,
    ).toBe(400);
    expect(
      (await liaison.post(`/api/review/pairs/${match.id}/decision`, { verdict: 'match' })).statusCode,
    ).toBe(403);
    const decided = await reviewer.post(`/api/review/pairs/${match.id}/decision`, {
      verdict: 'match',
      note: 'same line',
    });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().personId).toEqual(expect.any(String));
    const linked = (await reviewer.get('/api/review/pairs?status=decided')).json().items[0];
    expect(linked.a.personId).toBe(decided.json().personId);
    expect(linked.b.personId).toBe(decided.json().personId);

    const undone = await reviewer.post(`/api/review/decisions/${decided.json().decisionId}/undo`, {
      reason: 'too quick',
    });
    expect(undone.statusCode).toBe(200);
    const again = await reviewer.post(`/api/review/decisions/${decided.json().decisionId}/undo`, {});
    expect(again.statusCode).toBe(409);
    expect((await reviewer.get(`/api/review/pairs/${match.id}`)).json()).toMatchObject({ status: 'open' });
    const reopened = (await reviewer.get(`/api/review/pairs/${match.id}`)).json();
    expect(reopened.a.personId).not.toBe(reopened.b.personId);
    expect(
      (await reviewer.post('/api/review/decisions/00000000-0000-7000-8000-000000000000/undo', {})).statusCode,
    ).toBe(404);

    const rejected = await reviewer.post(`/api/review/pairs/${reject.id}/decision`, { verdict: 'non_match' });
    expect(rejected.json()).toEqual({ decisionId: expect.any(String) });
    const next = (await reviewer.get('/api/review/next')).json().pair;
    expect(next.id).toBe(match.id);
    // Proposed again (e.g. by a later linkage run): the rejected pair stays out of the queue.
    const result = await new ReviewService(store()).propose([
      {
        recordA: reject.a.id,
        recordB: reject.b.id,
        probability: 0.99,
        matchWeight: 9,
        modelVersion: model.version,
      },
    ]);
    expect(result.skippedDecided).toBe(1);
    const open = (await reviewer.get('/api/review/pairs?status=open'))
      .json()
      .items.map((p: { id: string }) => p.id);
    expect(open).not.toContain(reject.id);
    expect((await reviewer.get('/api/review/next')).json().pair.id).not.toBe(reject.id);
  });
});
