import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId, nowIso } from '../src/ids.js';
import { readModelFile } from '../src/services/batch/linkage-model-file.js';
import { ReviewService } from '../src/services/review/review.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { SourceRepository } from '../src/store/repositories/sources.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * The review queue and consent (issue 21, Security 8): a pair with a record of a family report whose consent to
 * internal use is withdrawn is not in the queue for reviewers (as /api/records does not show the record), reading
 * pairs is audited, and forensic fields follow a token's scopes. All names are synthetic.
 */
describeEachDialect('review queue, consent and audit', (store) => {
  let api: ApiHarness;
  let liaison: ApiClient;
  let reviewer: ApiClient;
  let familyRecord: string;
  let reportId: string;
  let hiddenPair: string;
  let shownPair: string;

  async function registryRecord(first: string, family: string): Promise<string> {
    const source = await new SourceRepository(store().db).findOrCreate('synthetic registry', 'other');
    const id = newId();
    await store()
      .db.insertInto('records')
      .values({
        id,
        source_id: source.id,
        external_id: id,
        kind: 'registry_line',
        original: JSON.stringify({ synthetic: true }),
        full_name: null,
        first_name: first,
        father_name: null,
        grandfather_name: null,
        family_name: family,
        mother_name: null,
        name_normalized: null,
        name_script: 'latn',
        sex: 'm',
        birth_date: null,
        birth_year: 1985,
        governorate_id: null,
        place_of_origin: null,
        arrest_date: null,
        arresting_branch_id: null,
        detainee_number: null,
        death_date: null,
        forensic_report_number: 'SYNTHETIC-FR-9',
        notes: 'SYNTHETIC forensic note',
        created_at: nowIso(),
        created_by: null,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_CONTACTS_KEY: randomBytes(32).toString('base64') });
    liaison = await api.as('liaison');
    reviewer = await api.as('reviewer');
    const filed = await api.anonymous.inject({
      method: 'POST',
      url: '/api/public/reports',
      remoteAddress: '10.77.0.1',
      payload: {
        person: { fullName: 'Synthetic Sameer Halabi', sex: 'male', birthDate: '1985' },
        consent: { internalUse: true },
        contact: {},
        language: 'en',
      },
    });
    expect(filed.statusCode).toBe(201);
    const row = await store()
      .db.selectFrom('family_reports')
      .select(['id', 'record_id'])
      .where('reference', '=', filed.json().reference)
      .executeTakeFirstOrThrow();
    reportId = row.id;
    familyRecord = row.record_id;
    const twin = await registryRecord('Sameer', 'Halabi');
    const a = await registryRecord('Omar', 'Synthetic');
    const b = await registryRecord('Omar', 'Synthetic');
    const version = readModelFile().version;
    await new ReviewService(store()).propose([
      {
        recordA: familyRecord,
        recordB: twin,
        probability: 0.99,
        matchWeight: 9,
        modelVersion: version,
        priority: 9,
      },
      { recordA: a, recordB: b, probability: 0.8, matchWeight: 4, modelVersion: version, priority: 1 },
    ]);
    const pairs = (await reviewer.get('/api/review/pairs')).json().items as {
      id: string;
      a: { id: string };
    }[];
    hiddenPair = pairs.find((p) => [familyRecord, twin].includes(p.a.id))?.id ?? '';
    shownPair = pairs.find((p) => p.id !== hiddenPair)?.id ?? '';
    expect(hiddenPair).not.toBe('');
    const withdrawn = await liaison.post(`/api/reports/${reportId}/consent`, {
      purpose: 'internal_use',
      granted: false,
    });
    expect(withdrawn.statusCode).toBe(200);
  });
  afterAll(async () => api.close());

  it('leaves out pairs whose family report withdrew consent, as /api/records does', async () => {
    expect((await reviewer.get(`/api/records/${familyRecord}`)).statusCode).toBe(404);
    const listed = (await reviewer.get('/api/review/pairs')).json().items.map((p: { id: string }) => p.id);
    expect(listed).toEqual([shownPair]);
    expect((await reviewer.get('/api/review/next')).json().pair.id).toBe(shownPair);
    expect((await reviewer.get(`/api/review/pairs/${hiddenPair}`)).statusCode).toBe(404);
    const decided = await reviewer.post(`/api/review/pairs/${hiddenPair}/decision`, { verdict: 'match' });
    expect(decided.statusCode).toBe(404);
    // Given back, the pair is there again.
    await liaison.post(`/api/reports/${reportId}/consent`, { purpose: 'internal_use', granted: true });
    expect((await reviewer.get(`/api/review/pairs/${hiddenPair}`)).statusCode).toBe(200);
    await liaison.post(`/api/reports/${reportId}/consent`, { purpose: 'internal_use', granted: false });
  });

  it('audits every read of pairs: the list with its pair ids, one pair, the next', async () => {
    const investigator = await api.as('investigator');
    await investigator.get('/api/review/pairs?status=open');
    await investigator.get('/api/review/next');
    await investigator.get(`/api/review/pairs/${shownPair}`);
    const rows = (await new AuditRepository(store().db).query({ actorId: investigator.user?.id, limit: 10 }))
      .filter((r) => r.action === 'read')
      .map((r) => [r.subjectType, r.subjectId, r.details]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['candidate_pairs', null, { status: 'open', pairs: [shownPair] }],
        ['candidate_pair', shownPair, null],
      ]),
    );
    expect(rows.filter((r) => r[0] === 'candidate_pair')).toHaveLength(2);
    // Ids only: no name of the pair's records.
    expect(JSON.stringify(rows)).not.toMatch(/Omar|Synthetic/);
  });

  it("shows forensic fields by the token's scopes, not only its owner's role", async () => {
    const investigator = await api.as('investigator');
    const minted = await investigator.inject({
      method: 'POST',
      url: '/api/tokens',
      payload: { name: 'queue only (synthetic)', scopes: ['review:read'] },
    });
    expect(minted.statusCode).toBe(201);
    const viaToken = await api.app.inject({
      method: 'GET',
      url: `/api/review/pairs/${shownPair}`,
      headers: { authorization: `Bearer ${minted.json().token}` },
    });
    expect(viaToken.statusCode).toBe(200);
    expect(viaToken.json().a).not.toHaveProperty('notes');
    expect(viaToken.body).not.toContain('SYNTHETIC');
    const bySession = await investigator.get(`/api/review/pairs/${shownPair}`);
    expect(bySession.json().a).toHaveProperty('notes', 'SYNTHETIC forensic note');
  });
});
