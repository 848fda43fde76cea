import iconv from 'iconv-lite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { randomBytesOf } from './evidence-files.js';
import { describeEachDialect } from './stores.js';

/**
 * Issue 21, Reliability 3, over HTTP: a CSV that is not text is refused naming the file, line and byte before
 * anything is written; UTF-16, Windows-1256 and CR-only line ends are read as what they are. Synthetic names only.
 */
describeEachDialect('bad CSVs over HTTP', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  const names = ['أحمد تجريبي', 'سارة تجريبية'];
  const csv = (eol = '\n') => `record_id,full_name${eol}r1,${names[0]}${eol}r2,${names[1]}${eol}`;

  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
  });
  afterAll(async () => api.close());

  const upload = (body: Buffer, fileName: string, extra = '') =>
    documenter.inject({
      method: 'POST',
      url: `/api/imports?kind=other&fileName=${fileName}${extra}`,
      payload: body,
      headers: { 'content-type': 'text/csv' },
    });
  const settle = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      const res = await documenter.get(`/api/imports/${id}`);
      if (res.json().status !== 'running') return res.json();
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('import did not finish');
  };
  const counts = async () => ({
    records: (await store().db.selectFrom('records').select('id').execute()).length,
    imports: (await store().db.selectFrom('imports').select('id').execute()).length,
  });

  it.each([
    ['random.bin', randomBytesOf(64 * 1024, 7), /random\.bin: byte offset \d+: .*\(line \d+\)/],
    [
      'nul.csv',
      Buffer.from(`record_id,full_name\nr1,a\nr2,b\0c\n`),
      /nul\.csv: byte offset 29: a NUL.*\(line 3\)/,
    ],
    [
      'latin.csv',
      Buffer.concat([Buffer.from('record_id,full_name\nr1,caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
      /latin\.csv: byte offset 26: .*\(line 2\)/,
    ],
  ])('refuses %s before writing anything', async (name, bytes, message) => {
    const before = await counts();
    const res = await upload(bytes, name);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(csv(), 'utf-16le')]), ''],
    ['utf16-nobom.csv', iconv.encode(csv('\r\n'), 'utf-16le'), ''],
    ['arabic-1256.csv', iconv.encode(csv(), 'windows-1256'), ''],
    ['arabic-declared.csv', iconv.encode(csv(), 'windows-1256'), '&encoding=windows-1256'],
    ['mac.csv', Buffer.from(csv('\r')), ''],
  ])('reads %s as the names it holds', async (name, bytes, extra) => {
    const res = await upload(bytes, name, extra);
    expect(res.statusCode, res.body).toBe(202);
    const done = await settle(res.json().id);
    expect(done.status).toBe('finished');
    const stored = await store()
      .db.selectFrom('records')
      .innerJoin('sources', 'sources.id', 'records.source_id')
      .select('records.full_name')
      .where('sources.name', '=', name)
      .execute();
    expect(stored.map((r) => r.full_name).sort()).toEqual([...names].sort());
  });
});
