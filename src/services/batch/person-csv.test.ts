import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CsvRecord, CsvRowSplitter, csvField, readPersonCsv } from './person-csv.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-csv-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function read(
  name: string,
  text: string | Buffer,
): Promise<{ records: CsvRecord[]; ignored: string[] }> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const records: CsvRecord[] = [];
  const summary = await readPersonCsv(file, (r) => records.push(r));
  return { records, ignored: summary.ignoredColumns };
}

describe('reading person-record CSV', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF and a BOM', async () => {
    const { records } = await read(
      'quoted.csv',
      '\ufeffRecord_ID, full_name ,notes\r\n1,"Al-Masri, Mohammad","said ""he"" was\r\nmoved"\r\n2,خالد الحلبي,\r\n',
    );
    expect(records.map((r) => r.id)).toEqual(['1', '2']);
    expect(records[0]?.fields).toMatchObject({
      full_name: 'Al-Masri, Mohammad',
      notes: 'said "he" was\r\nmoved',
    });
    expect(records[1]).toMatchObject({ line: 4, fields: { full_name: 'خالد الحلبي' } });
  });

  it('numbers rows when there is no record_id and names the file as source when there is no source', async () => {
    const { records, ignored } = await read('plain.csv', 'full_name,colour\nAli Hasan,red\nOmar Ali,blue');
    expect(records.map((r) => [r.id, r.fields.source])).toEqual([
      ['1', 'plain.csv'],
      ['2', 'plain.csv'],
    ]);
    expect(ignored).toEqual(['colour']);
  });

  it('pads short rows and refuses long ones, naming the file and line', async () => {
    const { records } = await read('short.csv', 'record_id,first_name,family_name\na,Ali\n');
    expect(records[0]?.fields).toEqual({ record_id: 'a', first_name: 'Ali', source: 'short.csv' });
    await expect(read('long.csv', 'record_id,first_name\na,Ali,extra\n')).rejects.toThrow(
      /long\.csv line 2: 3 fields, but the header names 2/,
    );
  });

  it('refuses a quote left open and a column named twice', async () => {
    await expect(read('open.csv', 'record_id,notes\na,"never closed\n')).rejects.toThrow(
      /open\.csv line 2: a quoted field/,
    );
    await expect(read('twice.csv', 'record_id,Record_ID\n')).rejects.toThrow(
      /column record_id appears twice/,
    );
  });

  it('gives nothing for an empty file or a header alone', async () => {
    expect((await read('empty.csv', '')).records).toEqual([]);
    expect((await read('header.csv', 'record_id,full_name\n')).records).toEqual([]);
  });

  it('splits rows the same whatever the chunk boundaries', () => {
    const text = 'a,b\n"x,\n""y""",z\nplain,row\n';
    const whole: string[][] = [];
    new CsvRowSplitter('t').push(text, (cells) => whole.push(cells));
    for (let cut = 1; cut < text.length; cut++) {
      const rows: string[][] = [];
      const splitter = new CsvRowSplitter('t');
      splitter.push(text.slice(0, cut), (cells) => rows.push(cells));
      splitter.push(text.slice(cut), (cells) => rows.push(cells));
      splitter.end((cells) => rows.push(cells));
      expect(rows).toEqual(whole);
    }
  });

  it('quotes a field only when it must', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "x"')).toBe('"say ""x"""');
    expect(csvField(12)).toBe('12');
  });
});

describe('refusing bad bytes as the import reader does (issue 21)', () => {
  it.each([
    [
      'latin.csv',
      Buffer.concat([
        Buffer.from('record_id,full_name\n1,ok\n2,caf'),
        Buffer.from([0xe9]),
        Buffer.from('\n'),
      ]),
      /latin\.csv: byte offset 30: byte 0xe9 is not valid UTF-8 \(line 3\)/,
    ],
    [
      'nul.csv',
      Buffer.from('record_id,full_name\n1,a\0b\n'),
      /nul\.csv: byte offset 23: a NUL byte \(line 2\)/,
    ],
    [
      'cut.csv',
      Buffer.concat([Buffer.from('record_id,full_name\n1,'), Buffer.from('خ', 'utf8').subarray(0, 1)]),
      /cut\.csv: byte offset 22: byte 0xd8 is not valid UTF-8 \(line 2\)/,
    ],
  ])('refuses %s naming file, line and byte', async (name, bytes, message) => {
    await expect(read(name, bytes)).rejects.toThrow(message);
  });

  it('still reads Arabic split across read chunks', async () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => `${i},خالد الحلبي ${i}`).join('\n');
    const { records } = await read('long.csv', `record_id,full_name\n${rows}\n`);
    expect(records).toHaveLength(60_000);
    expect(records.at(-1)?.fields.full_name).toBe('خالد الحلبي 59999');
  });
});
