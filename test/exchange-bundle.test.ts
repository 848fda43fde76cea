/**
 * Court bundles on both dialects: a person's bundle holds its records, identified evidence and claims, leaves out
 * what consent does not allow, verifies offline, and logs its own export. All data synthetic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SignedIn } from '../src/access/caller.js';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import { newId } from '../src/ids.js';
import { createBundle } from '../src/services/exchange/bundle-build.js';
import { BundleError } from '../src/services/exchange/bundle-scope.js';
import { verifyBundle } from '../src/services/exchange/bundle-verify.js';
import { exportData } from '../src/services/exchange/export.js';
import { servicesOf } from '../src/services/index.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { initLedger } from '../src/services/ledger/setup.js';
import { verifyAll } from '../src/services/ledger/verify.js';
import { UserRepository } from '../src/store/repositories/users.js';
import { evidenceContext } from './evidence-context.js';
import { syntheticPhoto } from './evidence-files.js';
import { syntheticSource } from './ledger-fixtures.js';
import { describeEachDialect } from './stores.js';

describeEachDialect('court bundles', (getStore) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  let personId: string;
  let itemIds: string[];
  const users: Record<string, { id: string; role: string; name: string }> = {};

  beforeAll(async () => {
    ctx = await evidenceContext(getStore());
    fs.mkdirSync(ctx.config.dataDir, { recursive: true });
    await initLedger(ctx);
    const photos = path.join(ctx.dir, 'photos');
    fs.mkdirSync(photos);
    for (let i = 0; i < 3; i++)
      fs.writeFileSync(path.join(photos, `p${i}.jpg`), await syntheticPhoto(700 + i));
    await ingest(ctx, { paths: [photos], actor: 'tester', decoder: new SharpImageDecoder() });
    itemIds = (await ctx.store.db.selectFrom('evidence_items').select('id').orderBy('id').execute()).map(
      (r) => r.id,
    );
    const repo = new UserRepository(ctx.store.db);
    for (const [name, role] of [
      ['inv', 'investigator'],
      ['inv2', 'investigator'],
      ['doc', 'documenter'],
      ['rev1', 'reviewer'],
      ['rev2', 'reviewer'],
    ] as const) {
      const u = await repo.create({ username: `${name}-${newId().slice(-6)}`, passwordHash: 'x', role });
      users[name] = { id: u.id, role, name: u.username };
    }
    const { registry } = servicesOf(ctx);
    const sourceId = await syntheticSource(ctx.store.db);
    const listed = await registry.createRecord(
      {
        sourceId,
        kind: 'registry_line',
        externalId: 'r1',
        fields: { full_name: 'Synthetic Detainee One', detainee_number: '3456' },
      },
      users.inv!.id,
    );
    const consenting = await registry.createRecord(
      { sourceId, kind: 'family_report', externalId: 'f1', fields: { full_name: 'Synthetic Detainee One' } },
      users.inv!.id,
    );
    const withdrawn = await registry.createRecord(
      { sourceId, kind: 'family_report', externalId: 'f2', fields: { full_name: 'Synthetic Detainee 1' } },
      users.inv!.id,
    );
    const at = new Date().toISOString();
    for (const [recordId, granted] of [
      [consenting.id, 1],
      [withdrawn.id, 0],
    ] as const) {
      const reportId = newId();
      await ctx.store.db
        .insertInto('family_reports')
        .values({
          id: reportId,
          reference: `SYN-${reportId.slice(-8)}`,
          secret_hash: 'synthetic',
          status: 'received',
          record_id: recordId,
          language: 'ar',
          channel: 'liaison',
          filed_by: null,
          created_at: at,
          status_changed_at: at,
          status_changed_by: null,
        })
        .execute();
      await ctx.store.db
        .insertInto('report_consents')
        .values({
          id: newId(),
          report_id: reportId,
          purpose: 'criminal_proceedings',
          granted,
          recorded_at: at,
          recorded_by: null,
        })
        .execute();
    }
    const person = await registry.createPerson([listed.id, consenting.id, withdrawn.id], users.inv!.id);
    personId = person.id;
    await registry.addAssertion(
      { personId, kind: 'seen_in_detention', statement: 'synthetic claim' },
      users.inv!.id,
    );
    const ids = servicesOf(ctx).identifications;
    const viewer = (u: { id: string; role: string }): SignedIn => ({
      actor: { userId: u.id, username: u.id, role: u.role, via: 'session', credentialId: `s-${u.id}` },
      ip: null,
      channel: 'http',
    });
    const proposed = await ids.propose({
      evidenceId: itemIds[0]!,
      personId,
      basis: 'synthetic card number',
      actor: viewer(users.inv!),
    });
    await ids.confirm(proposed.id, viewer(users.rev1!));
    await ids.confirm(proposed.id, viewer(users.rev2!));
  });
  afterAll(() => ctx.dispose());

  it('bundles a person: records, identified evidence, claims; consent-withheld records stay out; verifies offline', async () => {
    const out = path.join(ctx.dir, 'person-bag');
    const result = await createBundle(
      ctx,
      {
        scope: { kind: 'person', personId },
        requester: users.inv!,
        approver: users.inv2!,
        reason: 'synthetic request',
      },
      out,
    );
    expect(result.items).toBe(1);
    expect(result.withheldRecords).toBe(1);
    const personFile = JSON.parse(
      fs.readFileSync(path.join(out, 'data', 'registry', `person-${personId}.json`), 'utf8'),
    );
    expect(personFile.records).toHaveLength(2);
    expect(personFile.record_links).toHaveLength(2);
    expect(personFile.assertions.map((a: { kind: string }) => a.kind)).toContain('seen_in_detention');
    expect(personFile.identifications[0].status).toBe('confirmed');
    const sha = (
      await ctx.store.db
        .selectFrom('evidence_items')
        .select('sha256')
        .where('id', '=', itemIds[0]!)
        .executeTakeFirstOrThrow()
    ).sha256;
    expect(fs.readdirSync(path.join(out, 'data', 'originals'))).toEqual([sha]);
    expect(fs.readFileSync(path.join(out, 'data', 'graphic.txt'), 'utf8')).toBe(`${sha}\n`);
    expect(fs.readFileSync(path.join(out, 'bag-info.txt'), 'utf8')).toContain(
      `Approver: ${users.inv2!.name}`,
    );

    const report = await verifyBundle(out);
    expect(report.faults).toEqual([]);
    expect(report.ok).toBe(true);
    // Every record, link, identification and custody row in the bag was checked against a proven entry.
    expect(report.rows).toBeGreaterThanOrEqual(2 + 2 + 2 + 2);

    // The export is a custody event on the item, and the archive still verifies.
    const exported = await ctx.store.db
      .selectFrom('custody_events')
      .selectAll()
      .where('kind', '=', 'exported')
      .where('evidence_id', '=', itemIds[0]!)
      .execute();
    expect(exported).toHaveLength(1);
    expect(JSON.parse(exported[0]!.details!).bundle).toBe(result.id);
    const audit = await ctx.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'bundle.created')
      .execute();
    expect(audit).toHaveLength(1);
    expect((await verifyAll(ctx)).problems).toEqual([]);
  });

  it('bundles chosen evidence items into a zip that verifies', async () => {
    const out = path.join(ctx.dir, 'items.zip');
    const result = await createBundle(
      ctx,
      { scope: { kind: 'evidence', evidenceIds: itemIds.slice(1) }, requester: users.inv! },
      out,
    );
    expect(result.items).toBe(2);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
    const report = await verifyBundle(out);
    expect(report.faults).toEqual([]);
    expect(report.originals).toBe(2);
  });

  it('refuses, before anything is built, a requester who may not read originals, or an approver who is the requester', async () => {
    const out = path.join(ctx.dir, 'refused');
    await expect(
      createBundle(ctx, { scope: { kind: 'evidence', evidenceIds: itemIds }, requester: users.doc! }, out),
    ).rejects.toThrow(/may not read this scope: lacks evidence:original/);
    await expect(
      createBundle(
        ctx,
        { scope: { kind: 'person', personId }, requester: users.inv!, approver: users.inv! },
        out,
      ),
    ).rejects.toThrow(BundleError);
    await expect(
      createBundle(
        ctx,
        { scope: { kind: 'person', personId: 'no-such-person' }, requester: users.inv! },
        out,
      ),
    ).rejects.toThrow(/no person no-such-person/);
    expect(fs.existsSync(out)).toBe(false);
    const exported = await ctx.store.db
      .selectFrom('custody_events')
      .select('id')
      .where('kind', '=', 'exported')
      .execute();
    expect(exported).toHaveLength(3);
  });

  it("exports a family report's record only for a purpose its consent covers", async () => {
    const read = async (name: string, purpose: 'criminal_proceedings' | 'un_iimp' | null) => {
      const out = path.join(ctx.dir, name);
      const report = await exportData(ctx, { kind: 'records', format: 'csv', out, purpose });
      return { report, text: fs.readFileSync(out, 'utf8') };
    };
    const court = await read('court.csv', 'criminal_proceedings');
    expect(court.report).toMatchObject({ exported: 2, withheld: 1 });
    expect(court.text.match(/family_report/g)).toHaveLength(1);
    const other = await read('iimp.csv', 'un_iimp');
    expect(other.report).toMatchObject({ exported: 1, withheld: 2 });
    expect(other.text).not.toContain('family_report');
    const none = await read('none.json', null);
    expect(none.report.withheld).toBe(2);
    const persons = await exportData(ctx, {
      kind: 'persons',
      format: 'pfif',
      out: path.join(ctx.dir, 'persons.xml'),
      purpose: 'criminal_proceedings',
    });
    expect(persons.exported).toBe(1);
    const xml = fs.readFileSync(path.join(ctx.dir, 'persons.xml'), 'utf8');
    expect(xml).toContain(`/person.${personId}</pfif:person_record_id>`);
    expect(xml).not.toContain('Synthetic Detainee 1<');
  });
});
