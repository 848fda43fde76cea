/**
 * The registry over HTTP on both dialects: records in Arabic and Latin, search with filters and reasons, persons
 * with provenance, the sibling guard, derived status, presenters per role, audit rows and bulk answers. Every name
 * and number here is synthetic.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SearchDigests } from '../src/services/audit/search-digest.js';
import { auditKeyFile } from '../src/services/keys/installation-keys.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import type { Store } from '../src/store/store.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

describeEachDialect('registry API', (store: () => Store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  let reviewer: ApiClient;
  let liaison: ApiClient;
  let investigator: ApiClient;
  let sourceId: string;
  let familySourceId: string;
  const ids = {} as Record<'latin' | 'arabic' | 'other' | 'family' | 'person' | 'second', string>;

  const create = async (client: ApiClient, body: Record<string, unknown>) => {
    const res = await client.post('/api/records', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    reviewer = await api.as('reviewer');
    liaison = await api.as('liaison');
    investigator = await api.as('investigator');
    const s = await documenter.post('/api/sources', { name: 'Synthetic registry list A', kind: 'list' });
    expect(s.statusCode, s.body).toBe(201);
    sourceId = s.json().id;
    const f = await documenter.post('/api/sources', { name: 'Synthetic family reports', kind: 'family' });
    familySourceId = f.json().id;

    ids.latin = await create(documenter, {
      sourceId,
      kind: 'registry_line',
      externalId: 'L-1',
      fullName: 'Mohammad Abdulrahman Al-Masri',
      governorate: 'Damascus',
      arrestingBranch: 'Branch 235',
      arrestDate: '15/03/2012',
      forensicReportNumber: 'FR-0001',
      notes: 'synthetic note',
    });
    ids.arabic = await create(documenter, {
      sourceId,
      kind: 'registry_line',
      externalId: 'L-2',
      firstName: 'خالد',
      fatherName: 'أحمد',
      familyName: 'الحلبي',
      governorate: 'حلب',
      arrestDate: '2013-06',
    });
    ids.other = await create(documenter, {
      sourceId,
      kind: 'registry_line',
      externalId: 'L-3',
      fullName: 'Omar Hassan Al-Khatib',
      governorate: 'Homs',
      arrestDate: '2014',
    });
    ids.family = await create(liaison, {
      sourceId: familySourceId,
      kind: 'family_report',
      fullName: 'محمد عبد الرحمن المصري',
      motherName: 'فاطمة',
      birthYear: 1985,
    });
  });
  afterAll(async () => api.close());

  it('stores a record with parsed parts, matching forms, script and resolved places', async () => {
    const res = await documenter.get(`/api/records/${ids.latin}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      fullName: 'Mohammad Abdulrahman Al-Masri',
      firstName: 'Mohammad',
      fatherName: 'Abdulrahman',
      familyName: 'Al-Masri',
      script: 'latn',
      governorateId: 'damascus',
      branchId: 'branch-235',
      arrestDate: '2012-03-15',
      source: { id: sourceId, name: 'Synthetic registry list A' },
      original: { full_name: 'Mohammad Abdulrahman Al-Masri', arrest_date: '15/03/2012' },
    });
    const arabic = (await documenter.get(`/api/records/${ids.arabic}`)).json();
    expect(arabic).toMatchObject({ fullName: 'خالد أحمد الحلبي', script: 'ar', governorateId: 'aleppo' });
  });

  it('refuses bad values naming the field, and a repeated external id as a conflict', async () => {
    const bad = await documenter.post('/api/records', {
      sourceId,
      kind: 'registry_line',
      arrestDate: '31/02/2012',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ path: 'body.arrestDate' })]);
    const dup = await documenter.post('/api/records', { sourceId, kind: 'registry_line', externalId: 'L-1' });
    expect(dup.statusCode).toBe(409);
    const noKind = await documenter.post('/api/records', { sourceId });
    expect(noKind.statusCode).toBe(400);
  });

  it('finds a Latin record from an Arabic query and the other way round, saying why', async () => {
    const ar = await investigator.post('/api/records/search', { q: 'محمد عبد الرحمن المصري' });
    expect(ar.statusCode).toBe(200);
    const found = ar.json().items.map((i: { id: string }) => i.id);
    expect(found).toContain(ids.latin);
    expect(found).not.toContain(ids.other);
    const hit = ar.json().items.find((i: { id: string }) => i.id === ids.latin);
    expect(hit.score).toBeGreaterThan(0.9);
    expect(hit.why).toHaveLength(3);
    expect(hit.why[0]).toMatch(/first name "Mohammad"/);

    const la = await investigator.post('/api/records/search', { q: 'Khaled Ahmad al-Halabi' });
    expect(la.json().items.map((i: { id: string }) => i.id)).toEqual([ids.arabic]);
  });

  it('filters by governorate and branch through aliases, by source, by arrest dates', async () => {
    const get = async (query: string) =>
      (await documenter.get(`/api/records?${query}`)).json().items.map((i: { id: string }) => i.id);
    expect(await get(`governorate=${encodeURIComponent('دمشق')}`)).toEqual([ids.latin]);
    expect(await get(`branch=${encodeURIComponent('فرع فلسطين')}`)).toEqual([ids.latin]);
    expect(await get(`source=${encodeURIComponent('Synthetic family reports')}`)).toEqual([ids.family]);
    expect((await get('from=2013-06-10&to=2014-12-31')).sort()).toEqual([ids.arabic, ids.other].sort());
    const post = await documenter.post('/api/records/search', { q: 'Mohammad', governorate: 'Homs' });
    expect(post.json().items).toEqual([]);
    const unknown = await documenter.get('/api/records?branch=nowhere-at-all');
    expect(unknown.statusCode).toBe(400);
  });

  it('pages with a cursor', async () => {
    const first = (await documenter.get('/api/records?limit=2')).json();
    expect(first.items).toHaveLength(2);
    const second = (
      await documenter.get(`/api/records?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)
    ).json();
    const all = [...first.items, ...second.items].map((i: { id: string }) => i.id);
    expect(new Set(all).size).toBe(4);
    expect((await documenter.get('/api/records?cursor=nonsense')).statusCode).toBe(400);
    // Names do not travel in URLs (issue 21): a name in the query string is refused, pointing to the POST.
    const inUrl = await documenter.get(`/api/records?q=${encodeURIComponent('Synthetic Name')}`);
    expect(inUrl.statusCode).toBe(400);
    expect(inUrl.json().detail).toContain('POST /api/records/search');
  });

  it('shows forensic fields only to forensic readers, and a family reporter only to report readers', async () => {
    const asDocumenter = (await documenter.get(`/api/records/${ids.latin}`)).json();
    expect(asDocumenter).not.toHaveProperty('forensicReportNumber');
    expect(asDocumenter).not.toHaveProperty('notes');
    expect(asDocumenter.original).not.toHaveProperty('forensic_report_number');
    expect(asDocumenter.original).not.toHaveProperty('notes');
    const asReviewer = (await reviewer.get(`/api/records/${ids.latin}`)).json();
    expect(asReviewer).toMatchObject({ forensicReportNumber: 'FR-0001', notes: 'synthetic note' });
    expect(asReviewer.original).toMatchObject({ forensic_report_number: 'FR-0001' });

    expect((await documenter.get(`/api/records/${ids.family}`)).json()).not.toHaveProperty('createdBy');
    expect((await liaison.get(`/api/records/${ids.family}`)).json().createdBy).toBe(liaison.user?.id);
    expect((await documenter.get(`/api/records/${ids.latin}`)).json().createdBy).toBe(documenter.user?.id);
  });

  it('audits every search with a keyed digest of the name and the filters, never the name (issue 21)', async () => {
    await investigator.post('/api/records/search', { q: 'Omar', governorate: 'Homs' });
    await investigator.post('/api/records/search', { q: '  OMAR ' });
    await investigator.get(`/api/records/${ids.other}`);
    const rows = await store()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('actor_id', '=', investigator.user?.id as string)
      .orderBy('id')
      .execute();
    const searches = rows.filter((r) => r.action === 'search').map((r) => r.details ?? '');
    const [first, second] = searches.slice(-2).map((d) => JSON.parse(d) as Record<string, unknown>);
    expect(first).toMatchObject({ governorate: 'Homs', results: expect.any(Number) });
    expect(first).not.toHaveProperty('q');
    for (const text of searches.slice(-2)) expect(text.toLowerCase()).not.toContain('omar');
    // HMAC under keys/audit.key, named by the key's id; the spellings a search treats as one digest alike.
    const digests = new SearchDigests(api.ctx.config);
    expect(first?.qDigest).toBe(digests.digest('Omar'));
    expect(second?.qDigest).toBe(first?.qDigest);
    expect(first?.qDigest).toMatch(/^[0-9a-f]{16}:[0-9a-f]{32}$/);
    const plain = createHash('sha256').update('omar').digest('hex');
    expect(String(first?.qDigest)).not.toContain(plain.slice(0, 32));
    expect(fs.statSync(auditKeyFile(api.ctx.config)).mode & 0o777).toBe(0o600);
    expect(
      rows.some((r) => r.action === 'read' && r.subject_type === 'record' && r.subject_id === ids.other),
    ).toBe(true);
  });

  it('reads of the audit log are themselves audited, with the filter used', async () => {
    const admin = await api.as('admin');
    const res = await admin.get('/api/audit?action=search');
    expect(res.statusCode).toBe(200);
    for (const item of res.json().items) expect(item.details).not.toHaveProperty('q');
    const reads = await store()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('actor_id', '=', admin.user?.id as string)
      .where('action', '=', 'audit_read')
      .execute();
    expect(reads).toHaveLength(1);
    expect(JSON.parse(reads[0]?.details ?? '{}')).toMatchObject({ filter: { action: 'search' } });
  });

  it('takes the names out of search rows written before digests, keeping the rest of the row', async () => {
    await new AuditRepository(store().db).append({
      actorId: 'synthetic-old-actor',
      actorRole: 'investigator',
      action: 'search',
      subjectType: 'record',
      details: { q: 'Synthetic Oldname', governorate: 'Homs', results: 2 },
    });
    const digests = new SearchDigests(api.ctx.config);
    expect(await digests.redactWrittenNames(store().db)).toBeGreaterThanOrEqual(1);
    const row = await store()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('actor_id', '=', 'synthetic-old-actor')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.details ?? '{}')).toEqual({
      qDigest: digests.digest('synthetic oldname'),
      governorate: 'Homs',
      results: 2,
    });
    expect(await digests.redactWrittenNames(store().db)).toBe(0);
  });

  it('answers a bulk create per item', async () => {
    const res = await documenter.post('/api/records/bulk', {
      items: [
        { sourceId, kind: 'diaspora_list', fullName: 'Yusuf Karim Haddad' },
        { sourceId, kind: 'diaspora_list', fullName: 'Rami Haddad', birthDate: 'yesterday' },
        { sourceId, fullName: 'No Kind' },
        { sourceId, kind: 'diaspora_list', externalId: 'L-1' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items.map((i: { ok: boolean }) => i.ok)).toEqual([true, false, false, false]);
    expect(items[0].id).toBeTruthy();
    expect(items[1].error).toMatch(/birth_date/);
    expect(items[2].error).toMatch(/kind/);
    expect(items[3].error).toMatch(/already/);
  });

  it('builds a person from records, shows it with sources and links, and undoes links with provenance', async () => {
    const made = await reviewer.post('/api/persons', {
      recordIds: [ids.latin, ids.family],
      note: 'same names',
    });
    expect(made.statusCode, made.body).toBe(201);
    const personId = made.json().id as string;
    const view = (await investigator.get(`/api/persons/${personId}`)).json();
    expect(view.status).toBe('reported_missing');
    expect(view.displayName).toBeTruthy();
    expect(view.records.map((r: { id: string }) => r.id).sort()).toEqual([ids.latin, ids.family].sort());
    for (const r of view.records) {
      expect(r.source.name).toBeTruthy();
      expect(r.link).toMatchObject({ basis: 'manual', linkedBy: reviewer.user?.id, note: 'same names' });
    }

    // Move the Arabic record into a second person, then into the first; undoing gives it back.
    const second = (await reviewer.post('/api/persons', { recordIds: [ids.arabic] })).json().id as string;
    const link = await reviewer.post(`/api/persons/${personId}/links`, {
      recordId: ids.arabic,
      note: 'checked',
    });
    expect(link.statusCode, link.body).toBe(201);
    // The second person lost its only record: its id answers with the person the record went to.
    const merged = (await investigator.get(`/api/persons/${second}`)).json();
    expect(merged).toMatchObject({ id: personId, mergedFrom: second });
    const undo = await reviewer.post(`/api/persons/${personId}/links/${link.json().id}/undo`, {
      reason: 'wrong',
    });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().restored).toMatchObject({ personId: second, recordId: ids.arabic });
    expect(
      (await investigator.get(`/api/persons/${second}`)).json().records.map((r: { id: string }) => r.id),
    ).toEqual([ids.arabic]);
    const again = await reviewer.post(`/api/persons/${personId}/links/${link.json().id}/undo`, {
      reason: 'again',
    });
    expect(again.statusCode).toBe(409);

    const history = await store()
      .db.selectFrom('record_links')
      .selectAll()
      .where('record_id', '=', ids.arabic)
      .orderBy('linked_at')
      .execute();
    expect(history.map((h) => h.unlink_reason)).toEqual([
      `moved to person ${second}`,
      `moved to person ${personId}`,
      'undone: wrong',
      null,
    ]);
    const reads = await store()
      .db.selectFrom('audit_log')
      .select('subject_id')
      .where('action', '=', 'read')
      .where('subject_type', '=', 'person')
      .execute();
    expect(reads.map((r) => r.subject_id)).toContain(personId);
    ids.person = personId;
    ids.second = second;
  });

  it('refuses to link records of persons recorded as siblings unless forced with a note', async () => {
    const rel = await documenter.post('/api/relations', {
      personA: ids.person,
      personB: ids.second,
      type: 'sibling',
      certainty: 'certain',
    });
    expect(rel.statusCode, rel.body).toBe(201);
    const refused = await reviewer.post(`/api/persons/${ids.person}/links`, { recordId: ids.arabic });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/sibling/);
    const forcedWithoutNote = await reviewer.post(`/api/persons/${ids.person}/links`, {
      recordId: ids.arabic,
      force: true,
    });
    expect(forcedWithoutNote.statusCode).toBe(409);
    const view = (await investigator.get(`/api/persons/${ids.person}`)).json();
    expect(view.relations).toEqual([expect.objectContaining({ type: 'sibling', retractedAt: null })]);

    const retracted = await documenter.post(`/api/relations/${rel.json().id}/retract`, {
      reason: 'not siblings',
    });
    expect(retracted.json().retractedAt).toBeTruthy();
    const allowed = await reviewer.post(`/api/persons/${ids.person}/links`, {
      recordId: ids.arabic,
      note: 'ok now',
    });
    expect(allowed.statusCode).toBe(201);
    await reviewer.post(`/api/persons/${ids.person}/links/${allowed.json().id}/undo`, { reason: 'test' });
    await documenter.post('/api/relations', {
      personA: ids.person,
      personB: ids.second,
      type: 'sibling',
      certainty: 'likely',
    });
    const forced = await reviewer.post(`/api/persons/${ids.person}/links`, {
      recordId: ids.arabic,
      force: true,
      note: 'DNA says one person',
    });
    expect(forced.statusCode).toBe(201);
    await reviewer.post(`/api/persons/${ids.person}/links/${forced.json().id}/undo`, { reason: 'test' });
  });

  it('derives the status from claims, shows events, and filters by status', async () => {
    const claim = await documenter.post(`/api/records/${ids.family}/assertions`, {
      kind: 'seen_in_detention',
      statement: 'a released detainee saw him (synthetic)',
      assertedAt: '2014-02-01',
    });
    expect(claim.statusCode, claim.body).toBe(201);
    const event = await documenter.post('/api/events', {
      personId: ids.person,
      type: 'held_at',
      dateStart: '2012-03',
      branch: 'فرع فلسطين',
    });
    expect(event.statusCode, event.body).toBe(201);
    expect(event.json()).toMatchObject({
      branchId: 'branch-235',
      datePrecision: 'month',
      governorateId: 'damascus',
    });
    const view = (await investigator.get(`/api/persons/${ids.person}`)).json();
    expect(view.status).toBe('believed_alive');
    expect(view.events).toEqual([expect.objectContaining({ type: 'held_at', dateStart: '2012-03' })]);
    expect(view.assertions).toEqual([expect.objectContaining({ kind: 'seen_in_detention' })]);

    const alive = (await investigator.get('/api/records?status=believed_alive'))
      .json()
      .items.map((i: { id: string }) => i.id);
    expect(alive.sort()).toEqual([ids.latin, ids.family].sort());
    const byName = (
      await investigator.post('/api/records/search', { q: 'Mohammad Al-Masri', status: 'reported_missing' })
    ).json();
    expect(byName.items).toEqual([]);

    await documenter.post('/api/assertions', {
      personId: ids.person,
      kind: 'identified_by_dna',
      assertedAt: '2020-01-01',
    });
    expect((await investigator.get(`/api/persons/${ids.person}`)).json().status).toBe('identified_deceased');
    const both = await documenter.post('/api/assertions', { kind: 'believed_dead' });
    expect(both.statusCode).toBe(400);
  });

  it('answers 404 for what is not there', async () => {
    const none = '00000000-0000-7000-8000-000000000000';
    expect((await investigator.get(`/api/persons/${none}`)).statusCode).toBe(404);
    expect((await investigator.get(`/api/records/${none}`)).statusCode).toBe(404);
    expect((await reviewer.post(`/api/persons/${none}/links`, { recordId: ids.latin })).statusCode).toBe(404);
    expect(
      (await documenter.post(`/api/records/${none}/assertions`, { kind: 'believed_dead' })).statusCode,
    ).toBe(404);
  });
});
