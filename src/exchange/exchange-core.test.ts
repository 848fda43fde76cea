import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import {
  BagFormatError,
  decodeBagPath,
  encodeBagPath,
  formatBagInfo,
  formatManifest,
  isSafeBagPath,
  parseBagInfo,
  parseManifest,
  parseOxum,
} from './bagit.js';
import { foldHeader, guessHeaders } from './header-guess.js';
import { pfifPersonXml, readPfif, xmlText } from './pfif.js';
import { decodeText, EncodingError, firstInvalidUtf8 } from './text-decode.js';

describe('BagIt text files', () => {
  it('writes manifests sorted by path, in the form sha256sum -c reads, and reads them back', () => {
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    const text = formatManifest([
      { sha256: b, path: 'data/z.txt' },
      { sha256: a, path: 'data/a b%\n.txt' },
    ]);
    expect(text).toBe(`${a}  data/a b%25%0A.txt\n${b}  data/z.txt\n`);
    expect(parseManifest(text, 'm')).toEqual([
      { sha256: a, path: 'data/a b%\n.txt' },
      { sha256: b, path: 'data/z.txt' },
    ]);
    expect(decodeBagPath(encodeBagPath('x%0Ay'))).toBe('x%0Ay');
  });

  it('refuses manifest lines that escape the bag, repeat a path or are not checksums', () => {
    const a = 'a'.repeat(64);
    expect(() => parseManifest(`${a}  ../etc/passwd\n`, 'm')).toThrow(/line 1: unsafe path/);
    expect(() => parseManifest(`${a}  data/x\n${a}  data/x\n`, 'm')).toThrow(
      /line 2: data\/x is listed twice/,
    );
    expect(() => parseManifest('abc data/x\n', 'm')).toThrow(BagFormatError);
    expect(isSafeBagPath('data/./x')).toBe(false);
    expect(isSafeBagPath('/data/x')).toBe(false);
    expect(isSafeBagPath('data/x')).toBe(true);
  });

  it('writes and reads bag-info with continuation lines and repeated labels', () => {
    const text = formatBagInfo([
      { label: 'Source-Organization', value: 'Synthetic Org' },
      { label: 'Reason', value: 'line one\nline two' },
      { label: 'Reason', value: 'again' },
    ]);
    expect(text).toBe('Source-Organization: Synthetic Org\nReason: line one\n  line two\nReason: again\n');
    expect(parseBagInfo(text)).toEqual([
      { label: 'Source-Organization', value: 'Synthetic Org' },
      { label: 'Reason', value: 'line one\nline two' },
      { label: 'Reason', value: 'again' },
    ]);
    expect(() => parseBagInfo('  starts with a continuation\n')).toThrow(/line 1/);
    expect(parseOxum('1024.3')).toEqual({ bytes: 1024, files: 3 });
    expect(parseOxum('1024')).toBeUndefined();
  });
});

describe('decoding the files people have', () => {
  const text = 'الاسم,الجنس\nمحمد,ذكر\n';
  it('detects UTF-8 (BOM or not), UTF-16 LE/BE (BOM or not) and Windows-1256', () => {
    const cases: [Buffer, string, boolean][] = [
      [Buffer.from(text, 'utf8'), 'utf-8', false],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'utf-8', true],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]), 'utf-16le', true],
      [iconv.encode(text, 'utf-16le'), 'utf-16le', false],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]), 'utf-16be', true],
      [iconv.encode(text, 'utf-16be'), 'utf-16be', false],
      [iconv.encode(text, 'windows-1256'), 'windows-1256', false],
    ];
    for (const [bytes, encoding, bom] of cases) {
      const decoded = decodeText(bytes, 'f.csv');
      expect(decoded.text, encoding).toBe(text);
      expect(decoded.encoding).toBe(encoding);
      expect(decoded.bom).toBe(bom);
    }
  });

  it('reads CR-only line ends as line ends, and names the byte offset of what is not text', () => {
    expect(decodeText(Buffer.from('a,b\r1,2\r'), 'f').text).toBe('a,b\n1,2\n');
    expect(decodeText(Buffer.from('a,b\r\n1,2\r\n'), 'f').lineEndings).toBe('crlf');
    const nul = Buffer.from('name\nab\u0000c\n', 'latin1');
    expect(() => decodeText(nul, 'nul.csv')).toThrow(/nul\.csv: byte offset 7: a NUL/);
    const random = Buffer.from([0x61, 0x62, 0x01, 0x9f, 0xff, 0x00, 0x13, 0x80]);
    try {
      decodeText(random, 'r.bin');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EncodingError);
      expect((error as EncodingError).offset).toBe(2);
    }
    expect(() => decodeText(iconv.encode(text, 'windows-1256'), 'w.csv', 'utf-8')).toThrow(
      /w\.csv: byte offset \d+: byte 0x\w\w is not valid UTF-8/,
    );
    expect(() => decodeText(Buffer.from([0xff, 0xfe, 0x41]), 'odd.csv')).toThrow(/odd number of bytes/);
  });

  it('finds the first invalid UTF-8 byte: overlongs, surrogates, truncations', () => {
    expect(firstInvalidUtf8(Buffer.from('abc'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from('مرحبا 😀', 'utf8'))).toBe(-1);
  });
});

describe('guessing headers', () => {
  it('maps the Arabic and English names teams use, and says which it only guessed', () => {
    const { guesses, map, needsConfirmation } = guessHeaders([
      'الاسم الثلاثي',
      'اسم الأب',
      'إسم الأم',
      "Father's name",
      'DOB',
      'full_name',
      'Date of arrest',
      'الفرع الأمني',
      'تاريخ الوفاة',
      'Shoe size',
    ]);
    expect(Object.fromEntries(guesses.map((g) => [g.header, g.column]))).toEqual({
      'الاسم الثلاثي': null,
      'اسم الأب': 'father_name',
      'إسم الأم': 'mother_name',
      "Father's name": null,
      DOB: 'birth_date',
      full_name: 'full_name',
      'Date of arrest': 'arrest_date',
      'الفرع الأمني': 'arresting_branch',
      'تاريخ الوفاة': 'death_date',
      'Shoe size': null,
    });
    // Two headers for one column: the exact name keeps it, the other is named as the loser.
    expect(guesses[0]?.note).toMatch(/full_name is taken by "full_name"/);
    expect(guesses[3]?.note).toMatch(/father_name is taken by "اسم الأب"/);
    expect(map.columns).not.toHaveProperty('full_name');
    expect(needsConfirmation).toBe(true);
    expect(guessHeaders(['full_name', 'sex']).needsConfirmation).toBe(false);
    expect(foldHeader('  إسمُ  الأبِ ')).toBe('اسم الاب');
  });
});

describe('PFIF 1.4', () => {
  it('writes persons with nested notes, never contact fields, and reads them back (1.2 names too)', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<pfif:pfif xmlns:pfif="http://zesty.ca/pfif/1.4">\n${pfifPersonXml(
      {
        person_record_id: 'x.org/p.1',
        full_name: 'A & B <synthetic>',
        author_email: 'never@example.org',
        sex: 'female',
      },
      [
        {
          note_record_id: 'x.org/n.1',
          status: 'believed_alive',
          text: 'synthetic',
          phone_of_found_person: '123',
        },
      ],
    )}</pfif:pfif>\n`;
    expect(xml).toContain('<pfif:full_name>A &amp; B &lt;synthetic&gt;</pfif:full_name>');
    expect(xml).not.toContain('never@example.org');
    expect(xml).not.toContain('123');
    const [read] = await readPfif([xml], 'x.xml');
    expect(read?.person).toEqual({
      person_record_id: 'x.org/p.1',
      full_name: 'A & B <synthetic>',
      sex: 'female',
    });
    expect(read?.notes).toEqual([
      {
        note_record_id: 'x.org/n.1',
        status: 'believed_alive',
        text: 'synthetic',
        person_record_id: 'x.org/p.1',
      },
    ]);
    const old = await readPfif(
      [
        '<pfif:pfif xmlns:pfif="http://zesty.ca/pfif/1.2"><pfif:person><pfif:person_record_id>y/1</pfif:person_record_id><pfif:first_name>Sam</pfif:first_name><pfif:last_name>Synthetic</pfif:last_name></pfif:person><pfif:note><pfif:person_record_id>y/1</pfif:person_record_id><pfif:status>believed_dead</pfif:status></pfif:note></pfif:pfif>',
      ],
      'old.xml',
    );
    expect(old[0]?.person).toMatchObject({ given_name: 'Sam', family_name: 'Synthetic' });
    expect(old[0]?.notes[0]?.status).toBe('believed_dead');
    await expect(
      readPfif(['<pfif:pfif xmlns:pfif="http://zesty.ca/pfif/1.4"><pfif:person>'], 'cut.xml'),
    ).rejects.toThrow(/cut\.xml: not well-formed/);
    await expect(readPfif(['<other/>'], 'other.xml')).rejects.toThrow(/no <pfif:pfif>/);
    expect(xmlText('a\u0001b')).toBe('ab');
  });
});
