import { afterAll, beforeAll, expect, it } from 'vitest';
import { importRecords } from '../src/services/imports/record-import.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * Issue 21, Reliability 4 and 5: two imports of one file at once both finish (the second skips what the first
 * wrote, no raw UNIQUE error), and an HTTP import leaves the server answering. Synthetic names only.
 */
const csvOf = (rows: number, prefix: string) =>
  `record_id,full_name,birth_year\n${Array.from(
    { length: rows },
    (_, i) => `${prefix}-${i},Synthetic Person ${prefix} ${i},${1950 + (i % 50)}`,
  ).join('\n')}\n`;

describeEachDialect('imports under faults', (store, dialect) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
  });
  afterAll(async () => api.close());

  it('runs two imports of one file at once: each row is stored once, neither fails', async () => {
    const text = csvOf(3000, 'twice');
    const options = { kind: 'other' as const, actor: null, fileName: 'twice.csv', batchSize: 200 };
    const [a, b] = await Promise.all([
      importRecords(store(), [text], options),
      importRecords(store(), [text], options),
    ]);
    expect(a.created + b.created).toBe(3000);
    expect(a.skipped + b.skipped).toBe(3000);
    const stored = await store()
      .db.selectFrom('records')
      .innerJoin('sources', 'sources.id', 'records.source_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sources.name', '=', 'twice.csv')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(3000);
  });

  it('keeps answering while an HTTP import runs (the event loop is free between batches)', async () => {
    const rows = dialect === 'sqlite' ? 20_000 : 5_000;
    const res = await documenter.inject({
      method: 'POST',
      url: '/api/imports?kind=other&fileName=big.csv',
      payload: csvOf(rows, 'big'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().id as string;
    // The longest the event loop went without a turn while the import ran.
    let last = performance.now();
    let worst = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    let healthz = 0;
    try {
      for (let i = 0; i < 2000; i++) {
        const started = performance.now();
        const health = await api.app.inject({ method: 'GET', url: '/healthz' });
        healthz = Math.max(healthz, performance.now() - started);
        expect(health.statusCode).toBe(200);
        const state = (await documenter.get(`/api/imports/${id}`)).json();
        if (state.status !== 'running') {
          expect(state).toMatchObject({ status: 'finished', created: rows });
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      clearInterval(timer);
    }
    expect(worst).toBeLessThan(1000);
    expect(healthz).toBeLessThan(1000);
  }, 120_000);
});
