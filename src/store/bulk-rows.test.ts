import { expect, it } from 'vitest';
import { evidenceContext } from '../../test/evidence-context.js';
import { describeEachDialect } from '../../test/stores.js';
import { nowIso } from '../ids.js';
import { servicesOf } from '../services/index.js';
import { settlePersons } from '../services/registry/person-settling.js';
import { idParts, insertRows, isOneOf, reclaimDeleted } from './bulk-rows.js';
import { RecordLinkRepository } from './repositories/record-links.js';
import { SourceRepository } from './repositories/sources.js';
import { UserRepository } from './repositories/users.js';

// Synthetic data only.
describeEachDialect('bulk rows', (store, dialect) => {
  it('inserts rows as given, text of any kind and nulls included, past one statement’s share', async () => {
    const s = store();
    const awkward = [
      '{"kind":"record","name":"عبد السلام"}',
      'quote " and backslash \\ and a tab\tand a newline\n',
      "single ' quote, {braces}, [brackets], null, \\u0041 written out",
      '',
    ];
    await insertRows(
      s.db,
      s.capabilities,
      'ledger_queue',
      awkward.map((entry) => ({ entry, staged_at: '2026-12-03T00:00:00.000Z' })),
    );
    const staged = await s.db
      .selectFrom('ledger_queue')
      .select(['entry', 'staged_at'])
      .orderBy('id')
      .execute();
    expect(staged.map((r) => r.entry)).toEqual(awkward);

    // More rows than one JSON statement (20,000) or one SQLite VALUES list carries, in order, nulls kept.
    const at = nowIso();
    const items = Array.from({ length: 20_050 }, (_, i) => ({
      kind: i % 2 ? 'record' : 'label',
      subject_id: `synthetic-${i}`,
      import_id: i % 3 ? null : `import-${i}`,
      enqueued_at: at,
    }));
    await insertRows(s.db, s.capabilities, 'tracing_queue', items);
    const queued = await s.db
      .selectFrom('tracing_queue')
      .select(['kind', 'subject_id', 'import_id'])
      .orderBy('seq')
      .execute();
    expect(queued).toHaveLength(items.length);
    expect(queued[20_047]).toEqual({ kind: 'record', subject_id: 'synthetic-20047', import_id: null });
    expect(queued[3]).toEqual({ kind: 'record', subject_id: 'synthetic-3', import_id: 'import-3' });

    // Ids as one array parameter (PostgreSQL) or one JSON parameter per 20,000 (SQLite): the same rows.
    const wanted = Array.from({ length: 20_001 }, (_, i) => `synthetic-${i * 7}`);
    expect(idParts(s.capabilities, wanted).length).toBe(dialect === 'postgres' ? 1 : 2);
    const found: string[] = [];
    for (const part of idParts(s.capabilities, wanted)) {
      const rows = await s.db
        .selectFrom('tracing_queue')
        .select('subject_id')
        .where(isOneOf(s.capabilities, 'subject_id', part))
        .execute();
      found.push(...rows.map((r) => r.subject_id));
    }
    expect(found.sort()).toEqual(wanted.filter((w) => Number(w.slice(10)) < 20_050).sort());

    // Rows holding bytes (which JSON does not carry) are bound as values, byte for byte, in a part of their own.
    const tiles = Array.from({ length: 3 }, (_, i) => ({
      level: 9,
      idx: i,
      hashes: Buffer.from([0, 255, i, 0x22, 0x5c]),
    }));
    await insertRows(s.db, s.capabilities, 'ledger_tiles', tiles);
    const stored = await s.db
      .selectFrom('ledger_tiles')
      .select(['idx', 'hashes'])
      .where('level', '=', 9)
      .orderBy('idx')
      .execute();
    expect(stored.map((t) => [Number(t.idx), Buffer.from(t.hashes).toString('hex')])).toEqual(
      tiles.map((t) => [t.idx, t.hashes.toString('hex')]),
    );

    // A queue emptied at once is reclaimed and takes rows again.
    await s.db.deleteFrom('tracing_queue').execute();
    await reclaimDeleted(s.db, s.capabilities, 'tracing_queue', items.length);
    await insertRows(s.db, s.capabilities, 'tracing_queue', items.slice(0, 2));
    expect(await s.db.selectFrom('tracing_queue').select('subject_id').execute()).toHaveLength(2);
  });

  it('settles persons the caller says now hold records without counting them, and the emptied as before', async () => {
    const s = store();
    const ctx = await evidenceContext(s);
    const { registry } = servicesOf(ctx);
    const user = await new UserRepository(s.db).create({
      username: 'bulk',
      passwordHash: 'x',
      role: 'admin',
    });
    const source = await new SourceRepository(s.db).create({ name: 'synthetic list', kind: 'list' });
    const record = async (externalId: string) =>
      (
        await registry.createRecord(
          {
            sourceId: source.id,
            kind: 'registry_line',
            externalId,
            fields: { full_name: 'Synthetic Person' },
          },
          user.id,
        )
      ).id;
    const r1 = await record('1');
    const r2 = await record('2');
    const links = new RecordLinkRepository(s.db, s.capabilities);
    const active = await links.activeOf([r1, r2]);
    const from = active.get(r1)?.personId as string;
    const into = active.get(r2)?.personId as string;
    // `into` marked merged by hand (a store edited so), then it takes r1: it holds records, so it is merged no more.
    await links.setMergedIntoMany([{ id: into, into: from, at: nowIso() }]);
    const at = nowIso();
    await s.transaction(async (trx) => {
      const repo = new RecordLinkRepository(trx, s.capabilities);
      await repo.closeReturning([active.get(r1)?.id as string], at, user.id, 'synthetic move');
      await repo.openMany(s.capabilities, [
        { recordId: r1, personId: into, at, by: user.id, basis: 'manual', note: 'synthetic move' },
      ]);
      expect(await settlePersons(trx, [from, into], at, new Set([into]), s.capabilities)).toBe(1);
    });
    expect((await links.person(from))?.merged_into).toBe(into);
    expect((await links.person(into))?.merged_into).toBeNull();
  });
});
