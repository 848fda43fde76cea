import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/** A SYNTHETIC family report, filed by a liaison on the family's behalf. */
function report(governorate: string) {
  return {
    person: { fullName: 'سمير اصطناعي', sex: 'male', birthDate: '1990', governorate },
    arrest: { date: '2014-02', branch: 'فرع فلسطين' },
    anteMortem: {},
    consent: {
      internalUse: true,
      partnerNgos: false,
      nationalCommission: false,
      unIimp: false,
      icmpIcrc: false,
      criminalProceedings: false,
      contactWithResults: true,
      photoComparison: false,
    },
    contact: { name: 'قريبة اصطناعية', phone: '+963 944 000 999', relation: 'أخت' },
    language: 'ar',
  };
}

/** The liaisons' worklist: assignment, governorate, case notes, and contact details opened only with a reason. */
describeEachDialect('the family-report worklist', (store) => {
  let api: ApiHarness;
  let liaison: ApiClient;
  let ids: string[];

  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_CONTACTS_KEY: randomBytes(32).toString('base64') });
    liaison = await api.as('liaison');
    ids = [];
    for (const g of ['حلب', 'Homs', 'حلب'])
      ids.push((await liaison.post('/api/reports', report(g))).json().id);
  });
  afterAll(async () => api.close());

  const listed = async (query: string) =>
    ((await liaison.get(`/api/reports?${query}`)).json().items as { id: string }[]).map((r) => r.id);

  it('lists reports assigned to me, to nobody, and by governorate', async () => {
    expect(
      (await liaison.post(`/api/reports/${ids[0]}/assign`, { userId: liaison.user?.id })).statusCode,
    ).toBe(200);
    expect(await listed('assigned=me')).toEqual([ids[0]]);
    expect(await listed('assigned=none')).toEqual([ids[2], ids[1]]);
    expect(await listed('governorate=aleppo')).toEqual([ids[2], ids[0]]);
    expect((await liaison.post(`/api/reports/${ids[0]}/assign`, { userId: 'nobody-such' })).statusCode).toBe(
      400,
    );
  });

  it('keeps case notes and opens the contact only when asked, with the reason audited', async () => {
    const id = ids[1] as string;
    const noted = await liaison.post(`/api/reports/${id}/notes`, { body: 'اصطناعي: اتصلنا بالعائلة' });
    expect(noted.statusCode).toBe(201);
    const view = (await liaison.get(`/api/reports/${id}?contact=omit`)).json();
    expect(view).not.toHaveProperty('contact');
    expect(view.notes.map((n: { body: string }) => n.body)).toEqual(['اصطناعي: اتصلنا بالعائلة']);
    const reads = () =>
      api.ctx.store.db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'read_contact')
        .where('subject_id', '=', id)
        .execute();
    expect(await reads()).toEqual([]);
    const opened = await liaison.post(`/api/reports/${id}/contact`, {
      reason: 'to tell the family of a result',
    });
    expect(opened.json().contact).toMatchObject({ name: 'قريبة اصطناعية', phone: '+963 944 000 999' });
    expect((await reads()).map((r) => JSON.parse(r.details ?? '{}').reason)).toEqual([
      'to tell the family of a result',
    ]);
    expect((await liaison.post(`/api/reports/${id}/contact`, { reason: '' })).statusCode).toBe(400);
    const reviewer = await api.as('reviewer');
    expect((await reviewer.post(`/api/reports/${id}/contact`, { reason: 'curious' })).statusCode).toBe(403);
  });
});
