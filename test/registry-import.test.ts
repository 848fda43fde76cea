/**
 * Importing person-record CSVs: the service, the HTTP import with its progress, and the `athar import` command.
 * Every row is synthetic.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../src/services/imports/record-import.js';
import { servicesOf } from '../src/services/index.js';
import type { Store } from '../src/store/store.js';
import { type ApiHarness, createApi } from './api.js';
import { runAthar } from './cli.js';
import { describeEachDialect } from './stores.js';

const good = [
  'record_id,full_name,mother_name,sex,birth_date,governorate,arrest_date,arresting_branch,notes',
  'a1,Mohammad Abdulrahman Al-Masri,Fatima,m,1985-04-02,Damascus,15/03/2012,Branch 235,SYNTHETIC',
  'a2,خالد أحمد الحلبي,,ذكر,1979,حلب,2013-06,فرع فلسطين,SYNTHETIC',
  'a3,"Al-Khatib, Omar Hassan",,male,,Homs,2014,,SYNTHETIC',
].join('\n');

const withBad = [
  'record_id,full_name,sex,birth_date,arrest_date,governorate',
  'b1,Yusuf Karim Haddad,m,1990-01-01,2012-05-05,Atlantis',
  'b2,Rami Saleh,x,1990-13-01,2012-05-05,',
  'b3,Samir Nasser,,,31/02/2012,Idlib',
  'b1,Duplicate Id,,,,',
].join('\n');

async function countRecords(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDialect('importing person-record CSV', (store: () => Store) => {
  it('imports a good file with parsed names and resolved places, and a re-run changes nothing', async () => {
    const first = await importRecords(store(), [good], {
      kind: 'registry_line',
      sourceName: 'Synthetic list G',
      actor: 'test',
      fileName: 'good.csv',
    });
    expect(first).toMatchObject({ total: 3, done: 3, created: 3, skipped: 0, rejected: 0, errors: [] });
    const rows = await store()
      .db.selectFrom('records')
      .selectAll()
      .where('external_id', 'in', ['a1', 'a2', 'a3'])
      .orderBy('external_id')
      .execute();
    expect(rows.map((r) => [r.family_name, r.governorate_id, r.arresting_branch_id, r.sex])).toEqual([
      ['Al-Masri', 'damascus', 'branch-235', 'm'],
      ['الحلبي', 'aleppo', 'branch-235', 'm'],
      ['Al-Khatib', 'homs', null, 'm'],
    ]);
    const keys = await store()
      .db.selectFrom('record_name_keys')
      .select('key')
      .where('record_id', '=', rows[0]?.id as string)
      .execute();
    expect(keys.map((k) => k.key)).toContain('fk:MHMD|MSR');
    const staged = await store().db.selectFrom('ledger_queue').select('entry').execute();
    expect(staged.filter((s) => s.entry.includes('record.imported')).length).toBeGreaterThanOrEqual(3);

    const again = await importRecords(store(), [good], {
      kind: 'registry_line',
      sourceName: 'Synthetic list G',
      actor: 'test',
      fileName: 'good.csv',
    });
    expect(again).toMatchObject({ created: 0, skipped: 3, rejected: 0 });
  });

  it('names file, row and field of every bad value, and writes nothing in a dry run', async () => {
    const before = await countRecords(store());
    const dry = await importRecords(store(), [withBad], {
      kind: 'diaspora_list',
      actor: 'test',
      fileName: 'bad.csv',
      dryRun: true,
    });
    expect(await countRecords(store())).toBe(before);
    expect(dry).toMatchObject({ dryRun: true, created: 1, rejected: 3 });
    expect(dry.errors.map((e) => [e.file, e.row, e.line, e.field])).toEqual([
      ['bad.csv', 2, 3, 'birth_date'],
      ['bad.csv', 2, 3, 'sex'],
      ['bad.csv', 3, 4, 'arrest_date'],
      ['bad.csv', 4, 5, 'record_id'],
    ]);
    expect(dry.warnings).toEqual([expect.objectContaining({ row: 1, field: 'governorate' })]);
    const sources = await store()
      .db.selectFrom('sources')
      .select('name')
      .where('name', '=', 'bad.csv')
      .execute();
    expect(sources).toEqual([]);

    const real = await importRecords(store(), [withBad], {
      kind: 'diaspora_list',
      actor: 'test',
      fileName: 'bad.csv',
    });
    expect(real).toMatchObject({ created: 1, rejected: 3 });
    expect(await countRecords(store())).toBe(before + 1);
  });

  it('reads a file through a column map', async () => {
    const text = 'الرقم,الاسم الكامل,المحافظة\nm1,عمر حسن الخطيب,حمص\n';
    const report = await importRecords(store(), [text], {
      kind: 'registry_line',
      actor: 'test',
      fileName: 'mapped.csv',
      map: { columns: { الرقم: 'record_id', 'الاسم الكامل': 'full_name', المحافظة: 'governorate' } },
    });
    expect(report).toMatchObject({ created: 1, errors: [], ignoredColumns: [] });
  });

  describe('over HTTP', () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await createApi(store());
    });
    afterAll(async () => {
      await servicesOf(api.ctx).imports.settle();
      await api.close();
    });

    const upload = async (client: Awaited<ReturnType<ApiHarness['as']>>, csv: string, query: string) =>
      client.inject({
        method: 'POST',
        url: `/api/imports?${query}`,
        payload: csv,
        headers: { 'content-type': 'text/csv; charset=utf-8' },
      });

    const settle = async (client: Awaited<ReturnType<ApiHarness['as']>>, id: string) => {
      for (let i = 0; i < 200; i++) {
        const res = await client.get(`/api/imports/${id}`);
        if (res.json().status !== 'running') return res.json();
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('import did not finish');
    };

    it('runs an import in the background and answers its progress with the errors named', async () => {
      const documenter = await api.as('documenter');
      const res = await upload(
        documenter,
        withBad,
        'kind=diaspora_list&source=Synthetic%20upload&fileName=bad.csv',
      );
      expect(res.statusCode, res.body).toBe(202);
      const done = await settle(documenter, res.json().id);
      expect(done).toMatchObject({ status: 'finished', total: 4, done: 4, created: 1, errorCount: 4 });
      expect(done.errors[0]).toMatchObject({ file: 'bad.csv', row: 2, field: 'birth_date' });

      const dry = await upload(
        documenter,
        good,
        'kind=registry_line&source=Synthetic%20upload%202&dryRun=true',
      );
      expect((await settle(documenter, dry.json().id)).created).toBe(3);
      const rerun = await upload(
        documenter,
        withBad,
        'kind=diaspora_list&source=Synthetic%20upload&fileName=bad.csv',
      );
      expect(await settle(documenter, rerun.json().id)).toMatchObject({ created: 0, skipped: 1 });

      // The list: newest first, without the error lists, a page at a time.
      const first = (await documenter.get('/api/imports?limit=2')).json();
      expect(first.items.map((i: { id: string }) => i.id)).toEqual([rerun.json().id, dry.json().id]);
      expect(first.items[0]).toMatchObject({
        fileName: 'bad.csv',
        sourceName: 'Synthetic upload',
        errorCount: 4,
      });
      expect(first.items[0].errors).toBeUndefined();
      const second = (await documenter.get(`/api/imports?limit=2&before=${first.next}`)).json();
      expect(second.items[0].id).toBe(res.json().id);
    });

    const uploadBytes = async (
      client: Awaited<ReturnType<ApiHarness['as']>>,
      bytes: Buffer,
      query: string,
      type = 'application/octet-stream',
    ) =>
      client.inject({
        method: 'POST',
        url: `/api/imports?${query}`,
        payload: bytes,
        headers: { 'content-type': type },
      });
    const arabic =
      'record_id,full_name,governorate\nw1,عمر حسن الخطيب (اصطناعي),حمص\nw2,ليلى سمير العلي (اصطناعية),حماة\n';
    const names = async (source: string) =>
      (
        await store()
          .db.selectFrom('records as r')
          .innerJoin('sources as s', 's.id', 'r.source_id')
          .select('r.full_name')
          .where('s.name', '=', source)
          .orderBy('r.external_id')
          .execute()
      ).map((r) => r.full_name);

    it('reads the files people have, sent as they are: Windows-1256 and UTF-16 CSVs and XLSX workbooks', async () => {
      const documenter = await api.as('documenter');
      const cp1256 = await uploadBytes(
        documenter,
        iconv.encode(arabic, 'windows-1256'),
        'kind=registry_line&source=Synthetic%201256&fileName=list-1256.csv',
        'text/csv',
      );
      expect(cp1256.statusCode, cp1256.body).toBe(202);
      expect(cp1256.json()).toMatchObject({ format: 'csv', encoding: 'windows-1256' });
      expect(await settle(documenter, cp1256.json().id)).toMatchObject({ status: 'finished', created: 2 });
      expect(await names('Synthetic 1256')).toEqual([
        'عمر حسن الخطيب (اصطناعي)',
        'ليلى سمير العلي (اصطناعية)',
      ]);

      const utf16 = await uploadBytes(
        documenter,
        Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(arabic, 'utf-16le')]),
        'kind=registry_line&source=Synthetic%20utf16&fileName=list-16.csv',
      );
      expect(utf16.json()).toMatchObject({ encoding: 'utf-16le' });
      expect(await settle(documenter, utf16.json().id)).toMatchObject({ created: 2 });
      expect(await names('Synthetic utf16')).toHaveLength(2);

      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('SYNTHETIC');
      sheet.addRow(['record_id', 'full_name', 'governorate']);
      sheet.addRow(['x1', 'سامر يوسف الخطيب (اصطناعي)', 'حمص']);
      const xlsx = await uploadBytes(
        documenter,
        Buffer.from(await workbook.xlsx.writeBuffer()),
        'kind=registry_line&source=Synthetic%20xlsx&fileName=list.xlsx',
      );
      expect(xlsx.statusCode, xlsx.body).toBe(202);
      expect(xlsx.json()).toMatchObject({ format: 'xlsx' });
      expect(await settle(documenter, xlsx.json().id)).toMatchObject({ created: 1 });
      expect(await names('Synthetic xlsx')).toEqual(['سامر يوسف الخطيب (اصطناعي)']);
    });

    it('refuses bytes it cannot read before writing anything, and guessed headers until the user accepts them', async () => {
      const documenter = await api.as('documenter');
      const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
      const refused = await uploadBytes(
        documenter,
        noise,
        'kind=other&source=Synthetic%20noise&fileName=noise.csv',
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toMatch(/noise\.csv/);
      expect(await names('Synthetic noise')).toEqual([]);

      const arabicHeaders = Buffer.from('الرقم,الاسم الكامل,المحافظة\ng1,عمر حسن الخطيب (اصطناعي),حمص\n');
      const query = 'kind=registry_line&source=Synthetic%20guessed&fileName=guessed.csv';
      const unconfirmed = await uploadBytes(documenter, arabicHeaders, query, 'text/csv');
      expect(unconfirmed.statusCode).toBe(400);
      expect(unconfirmed.json().detail).toMatch(/acceptGuess=true/);
      expect(unconfirmed.json().errors).toContainEqual({
        path: 'header.الاسم الكامل',
        message: 'guessed as full_name',
      });
      expect(await names('Synthetic guessed')).toEqual([]);
      const accepted = await uploadBytes(documenter, arabicHeaders, `${query}&acceptGuess=true`, 'text/csv');
      expect(accepted.statusCode, accepted.body).toBe(202);
      expect(await settle(documenter, accepted.json().id)).toMatchObject({ created: 1 });
      expect(await names('Synthetic guessed')).toEqual(['عمر حسن الخطيب (اصطناعي)']);
    });

    it('previews a file with the guessed map and its first rows, imports with the map the user confirmed and keeps it by name', async () => {
      const documenter = await api.as('documenter');
      const bytes = iconv.encode(
        'الرقم,الاسم الثلاثي,اسم الأم,ملاحظة\np1,سامر خالد النجار (اصطناعي),منى,SYNTHETIC\np2,رامي حسن العلي (اصطناعي),,SYNTHETIC\n',
        'win1256',
      );
      const preview = await documenter.inject({
        method: 'POST',
        url: '/api/imports/preview?fileName=preview.csv',
        payload: bytes,
        headers: { 'content-type': 'text/csv' },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const body = preview.json();
      expect(body).toMatchObject({
        format: 'csv',
        encoding: 'windows-1256',
        total: 2,
        needsConfirmation: true,
      });
      expect(body.header).toEqual(['الرقم', 'الاسم الثلاثي', 'اسم الأم', 'ملاحظة']);
      expect(body.samples[0]).toEqual(['p1', 'سامر خالد النجار (اصطناعي)', 'منى', 'SYNTHETIC']);
      expect(body.guesses.find((g: { header: string }) => g.header === 'الاسم الثلاثي').column).toBe(
        'full_name',
      );
      expect(body.columns).toContain('mother_name');
      // Nothing was stored by the preview.
      expect(await names('Synthetic previewed')).toEqual([]);

      // The user corrects the guess: "ملاحظة" is the notes column; the map goes inline and is kept by name.
      const map = {
        columns: {
          الرقم: 'record_id',
          'الاسم الثلاثي': 'full_name',
          'اسم الأم': 'mother_name',
          ملاحظة: 'notes',
        },
      };
      const q = `kind=registry_line&source=Synthetic%20previewed&fileName=preview.csv&map=${encodeURIComponent(JSON.stringify(map))}&saveMapping=${encodeURIComponent('قائمة اصطناعية')}`;
      const started = await uploadBytes(documenter, bytes, q, 'text/csv');
      expect(started.statusCode, started.body).toBe(202);
      expect(await settle(documenter, started.json().id)).toMatchObject({ created: 2 });
      expect(await names('Synthetic previewed')).toEqual([
        'سامر خالد النجار (اصطناعي)',
        'رامي حسن العلي (اصطناعي)',
      ]);
      const saved = await documenter.get('/api/imports/mappings');
      expect(saved.json().items).toContainEqual({ name: 'قائمة اصطناعية', columns: map.columns });

      // The next file of the same team imports by the map's name, with no guess to accept.
      const next = Buffer.from(
        'الرقم,الاسم الثلاثي,اسم الأم,ملاحظة\np3,هادي سمير الحلبي (اصطناعي),,SYNTHETIC\n',
      );
      const again = await uploadBytes(
        documenter,
        next,
        `kind=registry_line&source=Synthetic%20previewed&fileName=next.csv&mapping=${encodeURIComponent('قائمة اصطناعية')}`,
        'text/csv',
      );
      expect(again.statusCode, again.body).toBe(202);
      expect(await settle(documenter, again.json().id)).toMatchObject({ created: 1 });

      const badMap = await uploadBytes(
        documenter,
        next,
        `kind=other&map=${encodeURIComponent('{"columns":{"x":"shoe_size"}}')}`,
        'text/csv',
      );
      expect(badMap.statusCode).toBe(400);
      expect(badMap.json().errors[0].path).toBe('map');
      const badName = await uploadBytes(
        documenter,
        next,
        'kind=other&map=%7B%22columns%22%3A%7B%7D%7D&saveMapping=%2F..%2F',
        'text/csv',
      );
      expect(badName.statusCode).toBe(400);
      const investigator = await api.as('investigator');
      expect((await investigator.get('/api/imports/mappings')).statusCode).toBe(403);
    });

    it('takes files only, and only from those who may write records', async () => {
      const documenter = await api.as('documenter');
      const json = await documenter.post('/api/imports?kind=other', { rows: [] });
      expect(json.statusCode).toBe(415);
      const investigator = await api.as('investigator');
      expect((await upload(investigator, good, 'kind=other')).statusCode).toBe(403);
    });
  });
});

describe('athar import', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-import-cli-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports with a JSON report, refuses bad rows by name with exit 1, and is idempotent', async () => {
    const data = path.join(dir, 'data');
    const file = path.join(dir, 'list.csv');
    fs.writeFileSync(file, good);
    const dry = await runAthar([
      'import',
      file,
      '--kind',
      'registry_line',
      '--data',
      data,
      '--dry-run',
      '--json',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, created: 3 });
    const run = await runAthar(['import', file, '--kind', 'registry_line', '--data', data, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ created: 3, skipped: 0 });
    const again = await runAthar(['import', file, '--kind', 'registry_line', '--data', data]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/created 0, already present 3, rejected 0/);

    const bad = path.join(dir, 'bad.csv');
    fs.writeFileSync(bad, withBad);
    const refused = await runAthar(['import', bad, '--kind', 'diaspora_list', '--data', data]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/bad\.csv row 2 \(line 3\) birth_date: "1990-13-01" is not a date/);
    expect(refused.stdout).toMatch(/bad\.csv row 3 \(line 4\) arrest_date/);

    const usage = await runAthar(['import', file, '--kind', 'poem', '--data', data]);
    expect(usage.code).toBe(2);
  }, 120_000);
});
