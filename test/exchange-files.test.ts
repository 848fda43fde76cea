/**
 * Imports from the files people have, and exports, on the real binary: encodings detected (or refused with the
 * byte offset before any row is written), XLSX sheets, header guessing that must be confirmed, saved mappings,
 * PFIF 1.4 both ways, and consent on export. Every name and file here is synthetic.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAthar } from './cli.js';

const arabicCsv =
  'الرقم,الاسم الثلاثي,اسم الأب,تاريخ الولادة,المحافظة\r\n1,محمد أحمد علي,أحمد,1980-01-02,حمص\r\n2,سامر خالد العلي,خالد,1975,دمشق\r\n';

describe('imports from the files people have, and exports (real binary)', () => {
  let dir: string;
  const data = () => path.join(dir, 'data');
  const write = (name: string, bytes: Buffer | string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const records = async () => {
    const r = await runAthar([
      'export',
      'records',
      '--format',
      'json',
      '--out',
      path.join(dir, `count-${Date.now()}-${Math.random()}.json`),
      '--data',
      data(),
      '--json',
    ]);
    return JSON.parse(r.stdout).exported as number;
  };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-exchange-files-'));
    expect((await runAthar(['init', '--data', data()])).code).toBe(0);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads UTF-8 with and without a BOM, UTF-16 LE and BE, and Windows-1256 alike', async () => {
    const files = {
      'utf8.csv': Buffer.from(arabicCsv, 'utf8'),
      'utf8-bom.csv': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(arabicCsv, 'utf8')]),
      'utf16le.csv': Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(arabicCsv, 'utf-16le')]),
      'utf16le-nobom.csv': iconv.encode(arabicCsv, 'utf-16le'),
      'utf16be.csv': Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(arabicCsv, 'utf-16be')]),
      'cp1256.csv': iconv.encode(arabicCsv, 'windows-1256'),
    };
    const expected = {
      'utf8.csv': 'utf-8',
      'utf8-bom.csv': 'utf-8',
      'utf16le.csv': 'utf-16le',
      'utf16le-nobom.csv': 'utf-16le',
      'utf16be.csv': 'utf-16be',
      'cp1256.csv': 'windows-1256',
    };
    for (const [name, bytes] of Object.entries(files)) {
      const r = await runAthar([
        'import',
        write(name, bytes),
        '--kind',
        'other',
        '--data',
        data(),
        '--dry-run',
        '--json',
      ]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.encoding, name).toBe(expected[name as keyof typeof expected]);
      expect(report.created, name).toBe(2);
      expect(report.errors, name).toEqual([]);
      expect(report.proposedMap.columns, name).toEqual({
        الرقم: 'record_id',
        'الاسم الثلاثي': 'full_name',
        'اسم الأب': 'father_name',
        'تاريخ الولادة': 'birth_date',
        المحافظة: 'governorate',
      });
    }
    expect(await records()).toBe(0);
  }, 120_000);

  it('refuses random bytes, NUL bytes and a wrong --encoding with the file and byte offset, writing nothing; reads CR-only line ends', async () => {
    const random = Buffer.alloc(4000);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    const cases: [string, Buffer, string[], RegExp][] = [
      ['random.csv', random, [], /random\.csv: byte offset \d+: /],
      [
        'nul.csv',
        Buffer.from('full_name,sex\nSynthetic\u0000Name,m\n', 'latin1'),
        [],
        /nul\.csv: byte offset 23: a NUL/,
      ],
      [
        'latin.csv',
        iconv.encode('full_name\nSynthétique Nom\n', 'latin1'),
        [],
        /latin\.csv: byte offset 15: byte 0xe9 is not valid UTF-8/,
      ],
      [
        'forced.csv',
        iconv.encode(arabicCsv, 'windows-1256'),
        ['--encoding', 'utf-8'],
        /forced\.csv: byte offset \d+: byte 0x\w\w is not valid UTF-8/,
      ],
    ];
    for (const [name, bytes, extra, message] of cases) {
      const r = await runAthar([
        'import',
        write(name, bytes),
        '--kind',
        'other',
        '--data',
        data(),
        '--accept-guess',
        ...extra,
      ]);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(message);
    }
    expect(await records()).toBe(0);
    const cr = await runAthar([
      'import',
      write('cr.csv', 'full_name,sex\rSynthetic One,m\rSynthetic Two,f\r'),
      '--kind',
      'other',
      '--data',
      data(),
      '--json',
    ]);
    expect(cr.code, cr.stderr).toBe(0);
    expect(JSON.parse(cr.stdout).created).toBe(2);
  }, 120_000);

  it('proposes a map for Arabic and English headers, imports only once it is accepted, and reuses a saved mapping', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('cover').addRow(['synthetic workbook']);
    const sheet = workbook.addWorksheet('list');
    sheet.addRow(['No', "Father's name", 'Full name', 'DOB', 'Gender', 'Remarks']);
    sheet.addRow([1, 'Ahmad', 'Samer Ahmad Synthetic', new Date(Date.UTC(1980, 0, 2)), 'male', 'synthetic']);
    sheet.addRow([
      2,
      'Khaled',
      { richText: [{ text: 'Rami ' }, { text: 'Khaled Synthetic' }] },
      1975,
      'm',
      '',
    ]);
    const xlsx = path.join(dir, 'people.xlsx');
    await workbook.xlsx.writeFile(xlsx);

    const refused = await runAthar(['import', xlsx, '--kind', 'other', '--data', data(), '--sheet', 'list']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"Father's name" → father_name/);
    expect(refused.stderr).toMatch(/--accept-guess/);

    const dry = await runAthar([
      'import',
      xlsx,
      '--kind',
      'other',
      '--data',
      data(),
      '--sheet',
      'list',
      '--dry-run',
      '--json',
    ]);
    const proposed = JSON.parse(dry.stdout);
    expect(proposed.sheet).toBe('list');
    expect(proposed.proposedMap.columns).toEqual({
      No: 'record_id',
      "Father's name": 'father_name',
      'Full name': 'full_name',
      DOB: 'birth_date',
      Gender: 'sex',
      Remarks: 'notes',
    });
    expect(proposed.created).toBe(2);

    const done = await runAthar([
      'import',
      xlsx,
      '--kind',
      'other',
      '--data',
      data(),
      '--sheet',
      '2',
      '--accept-guess',
      '--save-mapping',
      'team list',
      '--json',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).created).toBe(2);
    const again = await runAthar([
      'import',
      xlsx,
      '--kind',
      'other',
      '--data',
      data(),
      '--sheet',
      'list',
      '--source',
      'second copy',
      '--mapping',
      'team list',
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 2, errors: [] });
    expect(
      (await runAthar(['import', xlsx, '--kind', 'other', '--data', data(), '--mapping', 'nobody'])).code,
    ).toBe(2);
    expect(
      (
        await runAthar([
          'import',
          xlsx,
          '--kind',
          'other',
          '--data',
          data(),
          '--sheet',
          'missing',
          '--accept-guess',
        ])
      ).stderr,
    ).toMatch(/no sheet "missing"/);
    const out = path.join(dir, 'after-xlsx.csv');
    await runAthar(['export', 'records', '--format', 'csv', '--out', out, '--data', data()]);
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv).toContain('Rami Khaled Synthetic');
    expect(csv).toMatch(/Samer Ahmad Synthetic,,Ahmad,.*,m,1980-01-02/);
  }, 120_000);

  it('PFIF 1.4 both ways: records and their status notes go out, and come back in as records and claims', async () => {
    const pfif = `<?xml version="1.0" encoding="UTF-8"?>
<pfif:pfif xmlns:pfif="http://zesty.ca/pfif/1.4">
  <pfif:person>
    <pfif:person_record_id>partner.example.org/p.1</pfif:person_record_id>
    <pfif:source_name>synthetic partner list</pfif:source_name>
    <pfif:source_date>2013-05-01T00:00:00Z</pfif:source_date>
    <pfif:full_name>يوسف سمير الاصطناعي</pfif:full_name>
    <pfif:given_name>يوسف</pfif:given_name>
    <pfif:family_name>الاصطناعي</pfif:family_name>
    <pfif:author_email>never@example.org</pfif:author_email>
    <pfif:sex>male</pfif:sex>
    <pfif:date_of_birth>1990-03</pfif:date_of_birth>
    <pfif:note>
      <pfif:note_record_id>partner.example.org/n.1</pfif:note_record_id>
      <pfif:author_name>synthetic author</pfif:author_name>
      <pfif:source_date>2014-02-01T10:00:00Z</pfif:source_date>
      <pfif:status>believed_missing</pfif:status>
      <pfif:phone_of_found_person>+000</pfif:phone_of_found_person>
      <pfif:text>last seen at a checkpoint (synthetic)</pfif:text>
    </pfif:note>
  </pfif:person>
</pfif:pfif>
`;
    const file = write('partner.xml', pfif);
    const r = await runAthar(['import', file, '--kind', 'diaspora_list', '--data', data(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'pfif', created: 1, claimsAdded: 1, errors: [] });
    const twice = await runAthar(['import', file, '--kind', 'diaspora_list', '--data', data(), '--json']);
    expect(JSON.parse(twice.stdout)).toMatchObject({ created: 0, skipped: 1, claimsAdded: 0 });

    const out = path.join(dir, 'out.pfif.xml');
    const e = await runAthar([
      'export',
      'records',
      '--format',
      'pfif',
      '--out',
      out,
      '--data',
      data(),
      '--json',
    ]);
    expect(e.code, e.stderr).toBe(0);
    const xml = fs.readFileSync(out, 'utf8');
    expect(xml).toContain('<pfif:pfif xmlns:pfif="http://zesty.ca/pfif/1.4">');
    expect(xml).toContain('<pfif:full_name>يوسف سمير الاصطناعي</pfif:full_name>');
    expect(xml).toMatch(/<pfif:note>[\s\S]*<pfif:status>believed_missing<\/pfif:status>[\s\S]*<\/pfif:note>/);
    expect(xml).not.toMatch(/never@example\.org|\+000|author_email|phone_of_found_person/);

    // The export reads back into a fresh archive: the same records, and the note again as a claim.
    const fresh = path.join(dir, 'fresh');
    const back = await runAthar(['import', out, '--kind', 'other', '--data', fresh, '--json']);
    expect(back.code, back.stderr).toBe(0);
    const report = JSON.parse(back.stdout);
    expect(report.created).toBe(await records());
    expect(report.claimsAdded).toBe(1);
  }, 120_000);

  it("exports family reports' records only where consent covers the purpose, and refuses bad requests", async () => {
    const csv = write('family.csv', 'record_id,full_name\nf1,Synthetic Family One\n');
    expect((await runAthar(['import', csv, '--kind', 'family_report', '--data', data()])).code).toBe(0);
    // Without a purpose no family report goes out (records() exports without one too).
    const total = await records();
    const out = path.join(dir, 'without.csv');
    const r = await runAthar([
      'export',
      'records',
      '--format',
      'csv',
      '--out',
      out,
      '--data',
      data(),
      '--json',
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ exported: total, withheld: 1 });
    expect(fs.readFileSync(out, 'utf8')).not.toContain('Synthetic Family One');
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    expect(
      (await runAthar(['export', 'records', '--format', 'csv', '--out', out, '--data', data()])).code,
    ).toBe(2);
    expect(
      (
        await runAthar([
          'export',
          'evidence',
          '--format',
          'pfif',
          '--out',
          path.join(dir, 'e.xml'),
          '--data',
          data(),
        ])
      ).code,
    ).toBe(2);
    expect(
      (
        await runAthar([
          'export',
          'records',
          '--format',
          'csv',
          '--purpose',
          'gossip',
          '--out',
          path.join(dir, 'g.csv'),
          '--data',
          data(),
        ])
      ).code,
    ).toBe(2);
    const persons = await runAthar([
      'export',
      'persons',
      '--format',
      'json',
      '--out',
      path.join(dir, 'persons.json'),
      '--data',
      data(),
      '--json',
    ]);
    expect(persons.code, persons.stderr).toBe(0);
    const evidence = await runAthar([
      'export',
      'evidence',
      '--format',
      'csv',
      '--out',
      path.join(dir, 'evidence.csv'),
      '--data',
      data(),
      '--json',
    ]);
    expect(JSON.parse(evidence.stdout).exported).toBe(0);
  }, 120_000);
});
