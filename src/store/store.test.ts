import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect } from '../../test/stores.js';
import { newId, nowIso } from '../ids.js';
import { StoreError } from './errors.js';
import { AuditRepository } from './repositories/audit.js';
import { LedgerRepository } from './repositories/ledger.js';
import { PlaceRepository } from './repositories/places.js';
import { SourceRepository } from './repositories/sources.js';
import { UserRepository } from './repositories/users.js';
import { getMeta, migrate, openStore, setMeta } from './store.js';

describeEachDialect('store', (store, dialect) => {
  it('opens read-only: reads its own tables, and the database itself refuses a write', async () => {
    const reader = await openStore(store().database, { migrate: false, readOnly: true });
    try {
      expect(await getMeta(reader.db, 'app')).toBe('athar');
      await expect(setMeta(reader.db, 'read-only probe', 'written')).rejects.toThrow(/read.only|readonly/i);
    } finally {
      await reader.close();
    }
    expect(await getMeta(store().db, 'read-only probe')).toBeUndefined();
  });

  it('marks the database as athar and records its migrations', async () => {
    expect(await getMeta(store().db, 'app')).toBe('athar');
    const again = await migrate(store());
    expect(again).toEqual([]);
    expect(store().capabilities.dialect).toBe(dialect);
  });

  it('seeds the 14 governorates with Arabic and Latin names', async () => {
    const places = new PlaceRepository(store().db);
    const govs = await places.listGovernorates();
    expect(govs).toHaveLength(14);
    const damascus = govs.find((g) => g.id === 'damascus');
    expect(damascus?.nameAr).toBe('دمشق');
    expect(await places.findGovernorateByAlias('Rural Damascus')).toBe('rif-dimashq');
    expect(await places.findGovernorateByAlias('ريف دمشق')).toBe('rif-dimashq');
    expect(await places.findGovernorateByAlias('Deir Ezzor')).toBe('deir-ez-zor');
    expect(await places.findGovernorateByAlias('دير الزور')).toBe('deir-ez-zor');
  });

  it.each([
    ['Palestine Branch', 'branch-235'],
    ['Branch 235', 'branch-235'],
    ['فرع فلسطين', 'branch-235'],
    ['الفرع 235', 'branch-235'],
    ['الفرع ٢٣٥', 'branch-235'],
    ['Branch 215', 'branch-215'],
    ['الفرع 227', 'branch-227'],
    ['Branch 248', 'branch-248'],
    ['فرع الخطيب', 'branch-251'],
    ['Air Force Intelligence, Mezzeh', 'afi-mezzeh'],
    ['سجن صيدنايا', 'saydnaya'],
    ['Sednaya', 'saydnaya'],
    ['Military Police, Qaboun', 'mp-qaboun'],
    ['Military Hospital 601', 'hospital-601'],
    ['مشفى تشرين العسكري', 'tishreen-hospital'],
  ])('finds the branch for the alias %s', async (alias, id) => {
    expect(await new PlaceRepository(store().db).findBranchByAlias(alias)).toBe(id);
  });

  it('keeps the gazetteer in sync without duplicating it, and keeps aliases users added', async () => {
    const places = new PlaceRepository(store().db);
    await places.addBranchAlias('branch-235', 'Far3 Falasteen');
    const { syncGazetteer } = await import('./repositories/places.js');
    await syncGazetteer(store());
    const b = (await places.listBranches()).find((x) => x.id === 'branch-235');
    expect(b?.aliases).toContain('Far3 Falasteen');
    expect(b?.aliases.filter((a) => a === 'Palestine Branch')).toHaveLength(1);
    expect(await places.findBranchByAlias('far3 falasteen')).toBe('branch-235');
  });

  it('stores Arabic text unchanged and compares it exactly', async () => {
    const sources = new SourceRepository(store().db);
    const s = await sources.create({ name: 'تقرير عائلة (اختبار)', kind: 'family' });
    expect((await sources.get(s.id))?.name).toBe('تقرير عائلة (اختبار)');
    expect((await sources.findOrCreate('تقرير عائلة (اختبار)', 'family')).id).toBe(s.id);
  });

  it('lets a record belong to only one person at a time, keeping closed links as history', async () => {
    const db = store().db;
    const source = await new SourceRepository(db).findOrCreate('synthetic list', 'list');
    const recordId = newId();
    await db
      .insertInto('records')
      .values({
        id: recordId,
        source_id: source.id,
        external_id: 'r1',
        kind: 'diaspora_list',
        original: '{}',
        name_script: 'latn',
        created_at: nowIso(),
      } as never)
      .execute();
    const p1 = newId();
    const p2 = newId();
    await db
      .insertInto('persons')
      .values([
        { id: p1, created_at: nowIso(), created_by: null },
        { id: p2, created_at: nowIso(), created_by: null },
      ])
      .execute();
    const link = (person: string) => ({
      id: newId(),
      record_id: recordId,
      person_id: person,
      linked_at: nowIso(),
      linked_by: null,
      basis: 'manual',
      decision_id: null,
      note: null,
      unlinked_at: null,
      unlinked_by: null,
      unlink_reason: null,
    });
    const first = link(p1);
    await db.insertInto('record_links').values(first).execute();
    await expect(db.insertInto('record_links').values(link(p2)).execute()).rejects.toThrow();
    await db.updateTable('record_links').set({ unlinked_at: nowIso() }).where('id', '=', first.id).execute();
    await db.insertInto('record_links').values(link(p2)).execute();
    const rows = await db.selectFrom('record_links').selectAll().where('record_id', '=', recordId).execute();
    expect(rows).toHaveLength(2);
  });

  it('refuses an identification confirmed twice by the same reviewer', async () => {
    const db = store().db;
    const evidence = newId();
    const person = newId();
    await db.insertInto('persons').values({ id: person, created_at: nowIso(), created_by: null }).execute();
    await db
      .insertInto('evidence_items')
      .values({
        id: evidence,
        sha256: 'a'.repeat(64),
        size_bytes: 1,
        media_type: 'image/jpeg',
        created_at: nowIso(),
      } as never)
      .execute();
    const row = {
      id: newId(),
      evidence_id: evidence,
      person_id: person,
      status: 'confirmed',
      basis: null,
      proposed_by: 'u1',
      proposed_at: nowIso(),
      first_confirmed_by: 'u2',
      first_confirmed_at: nowIso(),
      second_confirmed_by: 'u2',
      second_confirmed_at: nowIso(),
      informed_by: null,
      informed_at: null,
    };
    await expect(db.insertInto('identifications').values(row).execute()).rejects.toThrow();
  });

  it('keeps users without exposing their secrets', async () => {
    const users = new UserRepository(store().db);
    const u = await users.create({ username: `u-${newId()}`, passwordHash: 'hash', role: 'reviewer' });
    const found = await users.findByUsername(u.username);
    expect(found).toEqual(u);
    expect(Object.keys(found ?? {})).not.toContain('passwordHash');
    expect((await users.credentials(u.username))?.password_hash).toBe('hash');
  });

  it('appends audit rows and answers queries newest first', async () => {
    const audit = new AuditRepository(store().db);
    await audit.append({
      actorId: 'a',
      actorRole: 'admin',
      action: 'record.read',
      subjectType: 'record',
      subjectId: 'r1',
    });
    await audit.append({ actorId: 'a', actorRole: 'admin', action: 'search', details: { q: 'محمد' } });
    const rows = await audit.query({ actorId: 'a' });
    expect(rows.map((r) => r.action)).toEqual(['search', 'record.read']);
    expect(rows[0]?.details).toEqual({ q: 'محمد' });
    expect(typeof rows[0]?.id).toBe('number');
  });

  it('commits appends as one transaction, and refuses a bad batch whole, naming the problem', async () => {
    const audit = new AuditRepository(store().db);
    const row = (action: string) => ({
      entry: { actorId: 'appender', actorRole: 'admin', action },
      at: nowIso(),
    });
    await store().append([audit.insertMany([row('one'), row('two')]).compile()]);
    // Both statements or neither: the second one breaks a NOT NULL constraint.
    const broken = sql`insert into audit_log (at, action) values (${nowIso()}, null)`.compile(store().db);
    await expect(store().append([audit.insertMany([row('three')]).compile(), broken])).rejects.toThrow(
      /action|null/i,
    );
    // Concurrent appends may share a commit, but one caller's bad statement fails that caller only.
    const settled = await Promise.allSettled([
      store().append([audit.insertMany([row('beside-1')]).compile()]),
      store().append([broken]),
      store().append([audit.insertMany([row('beside-2')]).compile()]),
    ]);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const many = Array.from({ length: 50 }, (_, i) =>
      store().append([audit.insertMany([row(`many-${i}`)]).compile()]),
    );
    await Promise.all(many);
    const rows = await audit.query({ actorId: 'appender', limit: 100 });
    expect(rows.map((r) => r.action).filter((a) => !a.startsWith('many-'))).toEqual([
      'beside-2',
      'beside-1',
      'two',
      'one',
    ]);
    expect(rows.filter((r) => r.action.startsWith('many-'))).toHaveLength(50);
  });

  it('keeps the latest log entry vouching for each row, in batches of thousands', async () => {
    const ledger = new LedgerRepository(store().db, store().capabilities);
    const first = Array.from({ length: 3000 }, (_, i) => ({
      table_name: 'records',
      row_id: `r-${i}`,
      idx: i,
      sha256: 'a'.repeat(64),
    }));
    await store().transaction((trx) => new LedgerRepository(trx, store().capabilities).upsertRows(first));
    // The second batch vouches again for half of them (a later entry wins) and for new rows.
    const second = Array.from({ length: 3000 }, (_, i) => ({
      table_name: 'records',
      row_id: `r-${i + 1500}`,
      idx: 10_000 + i,
      sha256: 'b'.repeat(64),
    }));
    await ledger.upsertRows(second);
    await ledger.upsertRows([]);
    const rows = await store()
      .db.selectFrom('ledger_rows')
      .select(['row_id', 'idx', 'sha256'])
      .where('table_name', '=', 'records')
      .execute();
    expect(rows).toHaveLength(4500);
    const byId = new Map(rows.map((r) => [r.row_id, r]));
    expect(byId.get('r-0')?.sha256).toBe('a'.repeat(64));
    expect(Number(byId.get('r-0')?.idx)).toBe(0);
    expect(Number(byId.get('r-1500')?.idx)).toBe(10_000);
    expect(byId.get('r-1500')?.sha256).toBe('b'.repeat(64));
    expect(Number(byId.get('r-4499')?.idx)).toBe(12_999);
  });

  it('reads and writes meta values', async () => {
    await setMeta(store().db, 'k', 'v1');
    await setMeta(store().db, 'k', 'v2');
    expect(await getMeta(store().db, 'k')).toBe('v2');
  });
});

describe('opening a database that is not athar’s', () => {
  it('refuses a file that is not SQLite, naming it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bad-'));
    const file = path.join(dir, 'athar.db');
    fs.writeFileSync(file, 'this is not a database, just text');
    const error = await openStore({ kind: 'sqlite', file }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not a SQLite database/);
  });

  it('refuses a SQLite database of another application and leaves it untouched', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-foreign-'));
    const file = path.join(dir, 'other.db');
    const raw = new SQLite(file);
    raw.exec('create table invoices (id integer primary key, total real)');
    raw.close();
    const error = await openStore({ kind: 'sqlite', file }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/not athar's \(invoices\)/);
    const check = new SQLite(file);
    expect(check.prepare("select name from sqlite_master where type='table'").all()).toEqual([
      { name: 'invoices' },
    ]);
    check.close();
  });

  it('refuses a SQLite file in a folder that does not exist', async () => {
    const error = await openStore({ kind: 'sqlite', file: '/nonexistent-athar/x/athar.db' }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toContain('/nonexistent-athar/x');
  });

  it('explains an unreachable PostgreSQL in one line without the password', async () => {
    const error = await openStore({
      kind: 'postgres',
      url: 'postgres://athar:s3cret@127.0.0.1:1/athar',
      poolSize: 1,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(
      /cannot reach PostgreSQL at postgres:\/\/athar:\*\*\*@127\.0\.0\.1:1\/athar/,
    );
    expect(error.message).not.toContain('s3cret');
  });

  it('refuses a PostgreSQL schema that holds another application’s tables', async () => {
    const database = await createTestDatabase('postgres');
    const first = await openStore(database.config, { migrate: false });
    await first.db.schema.createTable('invoices').addColumn('id', 'integer').execute();
    await first.close();
    const error = await openStore(database.config).catch((e) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/invoices/);
    await database.drop();
  });
});
