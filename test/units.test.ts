import { afterAll, beforeAll, expect, it } from 'vitest';
import { importRecords } from '../src/services/imports/record-import.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/** The gazetteer's units as entities, through the real server; SYNTHETIC records only. */
describeEachDialect('units (branches, prisons, hospitals)', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  let sourceId: string;

  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    sourceId = (
      await documenter.post('/api/sources', { name: 'Synthetic unit test list', kind: 'list' })
    ).json().id;
  });
  afterAll(async () => api.close());

  it('knows the agencies lists name, with the branches placed under them', async () => {
    const items = (await documenter.get('/api/units')).json().items as {
      id: string;
      parentId: string | null;
    }[];
    const byId = new Map(items.map((u) => [u.id, u]));
    expect(byId.get('branch-235')?.parentId).toBe('agency-military-intelligence');
    for (const [arrestingBranch, id] of [
      ['فرع أمن الدولة', 'agency-general-intelligence'],
      ['Political Security', 'agency-political-security'],
      ['Air Force Intelligence', 'agency-air-force-intelligence'],
    ]) {
      const made = await documenter.post('/api/records', {
        sourceId,
        kind: 'registry_line',
        fullName: 'Synthetic Person',
        arrestingBranch,
      });
      expect(made.json().warnings).toEqual([]);
      expect((await documenter.get(`/api/records/${made.json().id}`)).json().branchId).toBe(id);
    }
  });

  it('adds a unit and an alias that records and imports then resolve', async () => {
    const unit = await documenter.post('/api/units', {
      nameEn: 'Synthetic Branch 999',
      nameAr: 'الفرع الاصطناعي 999',
      kind: 'security_branch',
      number: 999,
      parentId: 'agency-military-intelligence',
    });
    expect(unit.statusCode).toBe(201);
    const id = unit.json().id as string;
    expect(unit.json().agency).toBe('military_intelligence');
    const alias = await documenter.post(`/api/units/${id}/aliases`, { alias: 'فرع التجربة' });
    expect(alias.statusCode).toBe(201);
    expect(alias.json().aliases.map((a: { alias: string }) => a.alias)).toContain('فرع التجربة');

    const made = await documenter.post('/api/records', {
      sourceId,
      kind: 'registry_line',
      fullName: 'شخص اصطناعي',
      arrestingBranch: 'فرع التجربة',
    });
    expect(made.json().warnings).toEqual([]);
    const report = await importRecords(
      api.ctx.store,
      ['record_id,full_name,arresting_branch\nu1,Synthetic Two,فرع التجربة\n'],
      {
        fileName: 'synthetic.csv',
        kind: 'registry_line',
        sourceName: 'Synthetic unit import',
        actor: documenter.user?.id ?? null,
      },
    );
    expect(report.created).toBe(1);
    expect(report.warnings).toEqual([]);

    const view = (await documenter.get(`/api/units/${id}`)).json();
    expect(view.counts).toEqual({ records: 2, events: 0 });
    expect(view.records).toHaveLength(2);
    expect(view.ancestors.map((a: { id: string }) => a.id)).toEqual(['agency-military-intelligence']);
    const audited = await api.ctx.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject_type', '=', 'unit')
      .where('subject_id', '=', id)
      .execute();
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(['unit_created', 'unit_alias_added', 'read']),
    );

    // What names another unit is refused, and so is a loop.
    expect((await documenter.post(`/api/units/${id}/aliases`, { alias: 'فرع فلسطين' })).statusCode).toBe(409);
    expect(
      (await documenter.post('/api/units/agency-military-intelligence/parent', { parentId: id })).statusCode,
    ).toBe(409);
    // An admin keeps the gazetteer but does not read case files: no records in the answer.
    const admin = await api.as('admin');
    const seen = (await admin.get(`/api/units/${id}`)).json();
    expect(seen.records).toEqual([]);
    expect(seen.counts).toBeNull();
    const reviewer = await api.as('reviewer');
    expect((await reviewer.post('/api/units', { nameEn: 'x', nameAr: 'س', kind: 'prison' })).statusCode).toBe(
      403,
    );
  });
});
