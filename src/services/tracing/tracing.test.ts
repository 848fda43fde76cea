import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { mkdirs, syntheticPhoto } from '../../../test/evidence-files.js';
import { describeEachDialect } from '../../../test/stores.js';
import type { SignedIn } from '../../access/caller.js';
import { personRecordColumns } from '../../domain/person-record.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { reconcile } from '../../linkage/reconcile.js';
import { generate } from '../../linkage/synth/generator.js';
import { DecisionRepository } from '../../store/repositories/decisions.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import { importRecords } from '../imports/record-import.js';
import { servicesOf } from '../index.js';
import { ingest } from '../ingest/ingest.js';
import { reportInput } from '../intake/report-input.js';
import { verifyAll } from '../ledger/verify.js';
import { runRegistryLink } from './registry-link.js';

const as = (userId: string, role: string): SignedIn => ({
  actor: { userId, username: userId, role, via: 'session', credentialId: `s-${userId}` },
  ip: null,
  channel: 'http',
});

describe('reconcile', () => {
  const persons = (personOf: number[], ids: string[], human: number[] = []) => ({
    personOf: Int32Array.from(personOf),
    personIds: ids,
    human: Uint8Array.from(ids, (_, p) => (human.includes(p) ? 1 : 0)),
  });

  it('moves nothing when the persons are what the run says', () => {
    expect(reconcile(Int32Array.from([0, 0, 2]), persons([0, 0, 1], ['p1', 'p2']))).toEqual([]);
  });

  it('keeps the person holding most of a cluster, and moves the others in', () => {
    // Records 0,1 in p1, record 2 in p2, record 3 in p3; the run says 0,1,2 are one person.
    const moves = reconcile(Int32Array.from([0, 0, 0, 3]), persons([0, 0, 1, 2], ['p1', 'p2', 'p3']));
    expect(moves).toEqual([{ cluster: 0, keeper: 0, records: [2] }]);
  });

  it('prefers a person built by hand, so people’s links keep their provenance', () => {
    const moves = reconcile(Int32Array.from([0, 0, 0]), persons([0, 0, 1], ['p1', 'p2'], [1]));
    expect(moves).toEqual([{ cluster: 0, keeper: 1, records: [0, 1] }]);
  });

  it('gives a cluster split off a person a new person when the old one keeps the rest', () => {
    const moves = reconcile(Int32Array.from([0, 0, 2]), persons([0, 0, 0], ['p1']));
    expect(moves).toEqual([{ cluster: 2, keeper: -1, records: [2] }]);
  });

  it('gives the same moves as the plain greedy over every (cluster, person) overlap, on random registries', () => {
    // The plain form: every overlap in one order, taken greedily (what reconcile computes group by group).
    const plain = (clusterOf: Int32Array, current: ReturnType<typeof persons>) => {
      const overlap = new Map<string, { c: number; p: number; count: number }>();
      clusterOf.forEach((c, r) => {
        const p = current.personOf[r] as number;
        const o = overlap.get(`${c}:${p}`) ?? { c, p, count: 0 };
        o.count++;
        overlap.set(`${c}:${p}`, o);
      });
      const options = [...overlap.values()].sort(
        (x, y) =>
          (current.human[y.p] as number) - (current.human[x.p] as number) ||
          y.count - x.count ||
          (current.personIds[x.p] as string).localeCompare(current.personIds[y.p] as string) ||
          x.c - y.c,
      );
      const keeperOf = new Map<number, number>();
      const kept = new Set<number>();
      for (const o of options) {
        if (keeperOf.has(o.c) || kept.has(o.p)) continue;
        keeperOf.set(o.c, o.p);
        kept.add(o.p);
      }
      const moves = new Map<number, { cluster: number; keeper: number; records: number[] }>();
      clusterOf.forEach((c, r) => {
        const keeper = keeperOf.get(c) ?? -1;
        if (keeper === current.personOf[r]) return;
        const move = moves.get(c) ?? { cluster: c, keeper, records: [] };
        move.records.push(r);
        moves.set(c, move);
      });
      return [...moves.values()].sort((a, b) => a.cluster - b.cluster);
    };
    let seed = 7;
    const random = (m: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % m;
    };
    for (let round = 0; round < 200; round++) {
      const n = 1 + random(60);
      const personCount = 1 + random(n);
      const personOf = Array.from({ length: n }, () => random(personCount));
      // A cluster is named by one of its records (as clustering names them).
      const clusterOf = Int32Array.from({ length: n }, (_, r) => (random(3) === 0 ? r : random(r + 1)));
      for (let r = 0; r < n; r++) clusterOf[r] = clusterOf[clusterOf[r] as number] as number;
      const ids = Array.from(
        { length: personCount },
        (_, p) => `p${random(1000).toString().padStart(4, '0')}-${p}`,
      );
      const human = Array.from({ length: personCount }, (_, p) => p).filter(() => random(5) === 0);
      const current = persons(personOf, ids, human);
      expect(reconcile(clusterOf, current), `round ${round}`).toEqual(plain(clusterOf, current));
    }
  });
});

// Synthetic data only (athar synth's generator, labelled synthetic).
describeEachDialect('the tracing loop', (store) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  const services = () => servicesOf(ctx);
  const csv = () => {
    const { records } = generate({ people: 150, seed: 11 });
    const lines = [personRecordColumns.join(',')];
    for (const { fields } of records) {
      lines.push(personRecordColumns.map((c) => JSON.stringify(fields[c] ?? '')).join(','));
    }
    return `${lines.join('\n')}\n`;
  };

  beforeAll(async () => {
    ctx = await evidenceContext(store());
  });
  afterAll(() => ctx.dispose());

  it('stores every record with a person of its own, and queues it to be linked and matched', async () => {
    const report = await importRecords(ctx.store, [csv()], {
      kind: 'registry_line',
      fileName: 'synthetic.csv',
      actor: null,
    });
    expect(report.created).toBeGreaterThan(200);
    const unlinked = await ctx.store.db
      .selectFrom('records as r')
      .select('r.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('record_links as l')
              .select('l.id')
              .whereRef('l.record_id', '=', 'r.id')
              .where('l.unlinked_at', 'is', null),
          ),
        ),
      )
      .execute();
    expect(unlinked).toEqual([]);
    expect(await new TracingRepository(ctx.store.db, ctx.store.capabilities).pending()).toBe(report.created);
  });

  it('links the registry into persons with the model’s provenance, and a second run changes nothing', async () => {
    // Its log entries prepared on a thread of their own, as a large run's are (later runs here prepare theirs in
    // slices on the run's own thread): the log and every row it vouches for verify.
    const first = await services().tracing.link({ entriesThreadFrom: 1 });
    const verified = await verifyAll(ctx);
    // This context signs no checkpoints (no log key): everything else must hold.
    expect(verified.problems.filter((p) => !p.code.startsWith('key_'))).toEqual([]);
    expect(verified.rows.checked).toBeGreaterThan(2 * first.moved);
    expect(first.moved).toBeGreaterThan(0);
    expect(first.merged).toBeGreaterThan(0);
    expect(first.reviewPairs).toBeGreaterThan(0);
    expect(await new TracingRepository(ctx.store.db, ctx.store.capabilities).pending()).toBe(0);
    const byModel = await ctx.store.db
      .selectFrom('record_links as l')
      .innerJoin('model_links as m', 'm.link_id', 'l.id')
      .select(['l.person_id', 'l.record_id', 'm.matched_record', 'm.model_version', 'm.probability'])
      .where('l.unlinked_at', 'is', null)
      .where('l.basis', '=', 'model')
      .execute();
    expect(byModel.length).toBe(first.moved);
    const links = new RecordLinkRepository(ctx.store.db);
    for (const l of byModel.slice(0, 20)) {
      // The record it rests on is in the same person.
      expect((await links.active(l.matched_record))?.personId).toBe(l.person_id);
      expect(l.probability).toBeGreaterThanOrEqual(0.99);
    }
    const second = await services().tracing.link();
    expect(second).toMatchObject({ moved: 0, merged: 0, persons: first.persons });

    // Read in two parts at once (the second on a thread of its own, as a large registry is): every record seen
    // once, with the person it is in, and still nothing to change.
    const out = path.join(ctx.dir, 'persons-two-threads.csv');
    const halves = await runRegistryLink(ctx.store, { parallelReadFrom: 1, out });
    expect(halves).toMatchObject({ moved: 0, merged: 0, persons: first.persons, records: first.records });
    const rows = fs.readFileSync(out, 'utf8').trim().split('\n').slice(1);
    const open = await ctx.store.db
      .selectFrom('record_links')
      .select(['record_id', 'person_id'])
      .where('unlinked_at', 'is', null)
      .execute();
    expect(rows.map((r) => `${r.split(',')[0]} ${r.split(',').at(-1)}`).sort()).toEqual(
      open.map((l) => `${l.record_id} ${l.person_id}`).sort(),
    );
  });

  it('never re-decides a reviewer’s decision: a rejection stays apart, a confirmation together', async () => {
    const [pair] = await ctx.store.db
      .selectFrom('record_links as a')
      .innerJoin('record_links as b', (j) =>
        j.onRef('b.person_id', '=', 'a.person_id').onRef('b.record_id', '>', 'a.record_id'),
      )
      .select(['a.record_id as a', 'b.record_id as b'])
      .where('a.unlinked_at', 'is', null)
      .where('b.unlinked_at', 'is', null)
      .where('b.basis', '=', 'model')
      .limit(1)
      .execute();
    expect(pair).toBeDefined();
    const review = services().review.service;
    await review.decide({
      recordA: pair!.a,
      recordB: pair!.b,
      decision: 'non_match',
      reviewerId: 'reviewer-1',
    });
    const links = new RecordLinkRepository(ctx.store.db);
    expect((await links.active(pair!.a))?.personId).not.toBe((await links.active(pair!.b))?.personId);
    await services().tracing.link();
    expect((await links.active(pair!.a))?.personId).not.toBe((await links.active(pair!.b))?.personId);

    const [open] = await review.open(1);
    expect(open).toBeDefined();
    await review.decide({ pairId: open!.id, decision: 'match', reviewerId: 'reviewer-2' });
    await services().tracing.link();
    expect((await links.active(open!.recordA))?.personId).toBe((await links.active(open!.recordB))?.personId);
  });

  it('answers a merged-away person with the person it went to', async () => {
    const merged = await ctx.store.db
      .selectFrom('persons')
      .select(['id', 'merged_into'])
      .where('merged_into', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    const view = await services().registry.readPerson(merged.id, as('investigator-1', 'investigator'));
    expect(view.mergedFrom).toBe(merged.id);
    expect(view.id).not.toBe(merged.id);
    expect(view.records.length).toBeGreaterThan(0);
  });

  it('refuses a second registry-wide run while one holds the registry', async () => {
    const tracing = new TracingRepository(ctx.store.db, ctx.store.capabilities);
    expect((await tracing.lock('tracing', 'someone-else', null, Date.now(), 60_000)).ok).toBe(true);
    await expect(services().tracing.link()).rejects.toMatchObject({ kind: 'conflict' });
    await tracing.unlock('tracing', 'someone-else');
  });

  it('links a new record as it arrives, and keeps a family report’s candidates for liaisons', async () => {
    const source = await new SourceRepository(ctx.store.db).findOrCreate('synthetic test list', 'list');
    // A record already in the registry, written again by another source: the loop links it at once.
    const existing = await ctx.store.db
      .selectFrom('records')
      .selectAll()
      .where('father_name', 'is not', null)
      .where('family_name', 'is not', null)
      .where('birth_date', 'is not', null)
      .where('governorate_id', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    const copy = await services().registry.createRecord(
      {
        sourceId: source.id,
        kind: 'diaspora_list',
        externalId: 'synthetic-copy-1',
        fields: {
          first_name: existing.first_name ?? '',
          father_name: existing.father_name ?? '',
          family_name: existing.family_name ?? '',
          birth_date: existing.birth_date ?? '',
          governorate: existing.governorate_id ?? '',
          ...(existing.mother_name ? { mother_name: existing.mother_name } : {}),
          ...(existing.arrest_date ? { arrest_date: existing.arrest_date } : {}),
        },
      },
      null,
    );
    const traced = await services().tracing.tracer.processPending();
    expect(traced.records).toBe(1);
    const links = new RecordLinkRepository(ctx.store.db);
    const joined = await links.active(copy.id);
    expect(joined?.personId).toBe((await links.active(existing.id))?.personId);
    expect(joined?.basis).toBe('model');
    // With its provenance (the pair it rests on, explained) and an audit row saying where the person went.
    const provenance = await ctx.store.db
      .selectFrom('model_links')
      .selectAll()
      .where('link_id', '=', joined?.id as string)
      .executeTakeFirstOrThrow();
    expect(provenance).toMatchObject({
      matched_record: existing.id,
      run_id: expect.stringMatching(/^loop-/),
    });
    expect(JSON.parse(provenance.explanation as string)).toMatchObject({ recordA: copy.id });
    const audit = await ctx.store.db
      .selectFrom('audit_log')
      .select(['subject_id', 'details'])
      .where('action', '=', 'tracing.linked')
      .execute();
    expect(audit).toContainEqual({
      subject_id: joined?.personId,
      details: expect.stringContaining('"moved":1'),
    });

    const filed = await services().intake.file(
      reportInput.parse({
        language: 'ar',
        person: {
          fullName: [existing.first_name, existing.father_name, existing.family_name].join(' '),
          ...(existing.birth_date ? { birthDate: existing.birth_date } : {}),
        },
        consent: { internalUse: true },
        contact: {},
      }),
      'public',
      { actor: null, ip: null, channel: 'http' },
    );
    await services().tracing.tracer.processPending();
    const candidates = await services().tracing.candidates(filed.id, as('liaison-1', 'liaison'));
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.map((c) => c.recordId)).toContain(existing.id);
    expect(candidates[0]).toMatchObject({ modelVersion: expect.any(String) });
    expect(candidates[0]?.explanation).toBeTruthy();
  });

  it('links a nameless forensic line by its detainee number and branch as it arrives, and not a number of another agency', async () => {
    const sources = new SourceRepository(ctx.store.db);
    const register = await sources.findOrCreate('synthetic branch register', 'list');
    const forensic = await sources.findOrCreate('synthetic forensic list', 'list');
    const create = (sourceId: string, externalId: string, fields: Record<string, string>) =>
      services().registry.createRecord({ sourceId, kind: 'registry_line', externalId, fields }, null);
    const line = await create(register.id, 'synthetic-register-77', {
      first_name: 'رهف',
      father_name: 'أحمد',
      family_name: 'الحمشي',
      arrest_date: '2012-05-08',
      arresting_branch: 'فرع فلسطين',
      detainee_number: '75269',
    });
    await services().tracing.tracer.processPending();
    // A Caesar-style line: the branch, the number (in Arabic-Indic digits) and the date of death; no name.
    const body = await create(forensic.id, 'synthetic-forensic-77', {
      arresting_branch: 'فرع فلسطين',
      detainee_number: '٧٥٢٦٩',
      death_date: '2012-09-25',
    });
    const other = await create(forensic.id, 'synthetic-forensic-78', {
      arresting_branch: 'الجوية',
      detainee_number: '75269',
      death_date: '2012-09-25',
    });
    await services().tracing.tracer.processPending();
    const links = new RecordLinkRepository(ctx.store.db);
    const joined = await links.active(body.id);
    expect(joined?.personId).toBe((await links.active(line.id))?.personId);
    expect(joined?.basis).toBe('model');
    expect((await links.active(other.id))?.personId).not.toBe(joined?.personId);
  });

  /**
   * Synthetic: a register that names two namesakes, one by his birth, the other by his arrest (and detainee number),
   * and a second register whose line gives both and would chain them into one person.
   */
  async function namesakes(
    register: string,
    second: string,
    man: Record<
      'first_name' | 'father_name' | 'family_name' | 'birth_date' | 'arrest_date' | 'detainee_number',
      string
    >,
  ) {
    const sources = new SourceRepository(ctx.store.db);
    const once = await sources.findOrCreate(register, 'list');
    const other = await sources.findOrCreate(second, 'list');
    const names = { first_name: man.first_name, father_name: man.father_name, family_name: man.family_name };
    const taken = {
      arrest_date: man.arrest_date,
      place_of_origin: 'نوى',
      mother_name: 'خديجة',
      arresting_branch: 'فرع فلسطين',
      grandfather_name: 'عمر',
      detainee_number: man.detainee_number,
    };
    const born = { birth_date: man.birth_date, governorate: 'درعا' };
    const create = (sourceId: string, externalId: string, fields: Record<string, string>) =>
      services().registry.createRecord({ sourceId, kind: 'registry_line', externalId, fields }, null);
    return {
      once,
      other,
      create,
      born: { ...names, ...born },
      taken: { ...names, ...taken },
      both: { ...names, ...born, ...taken },
    };
  }

  it('keeps two records of a list that names each person once apart when a third record matches both', async () => {
    const { once, other, create, born, taken, both } = await namesakes(
      'synthetic register naming each once',
      'synthetic second register',
      {
        first_name: 'سامر',
        father_name: 'حمزة',
        family_name: 'التخقي',
        birth_date: '1977-03-01',
        arrest_date: '2013-06-10',
        detainee_number: '4411',
      },
    );
    const a = await create(once.id, 'once-born', born);
    const b = await create(once.id, 'once-taken', taken);
    await services().tracing.tracer.processPending();
    const x = await create(other.id, 'both', both);
    await services().tracing.tracer.processPending();

    const links = new RecordLinkRepository(ctx.store.db);
    const person = async (id: string) => (await links.active(id))?.personId;
    // x joins the register line its detainee number names; the other namesake stays a person of his own.
    expect(await person(x.id)).toBe(await person(b.id));
    expect(await person(a.id)).not.toBe(await person(b.id));
    // The refused link goes to a reviewer.
    const [lo, hi] = a.id < x.id ? [a.id, x.id] : [x.id, a.id];
    const pair = await ctx.store.db
      .selectFrom('candidate_pairs')
      .select(['status', 'probability'])
      .where('record_a', '=', lo)
      .where('record_b', '=', hi)
      .executeTakeFirst();
    expect(pair).toMatchObject({ status: 'open', probability: expect.any(Number) });
    expect(pair?.probability).toBeGreaterThanOrEqual(0.995);
  });

  it('finds the lists two of whose records people joined: a match in force, a person made by hand', async () => {
    const sources = new SourceRepository(ctx.store.db);
    const create = (sourceId: string, externalId: string, full_name: string) =>
      services().registry.createRecord(
        { sourceId, kind: 'registry_line', externalId, fields: { full_name } },
        null,
      );
    const decided = await sources.findOrCreate('synthetic list, a match decided', 'list');
    const undone = await sources.findOrCreate('synthetic list, a match undone', 'list');
    const byHand = await sources.findOrCreate('synthetic list, a person by hand', 'list');
    const apart = await sources.findOrCreate('synthetic list, nobody joined', 'list');
    const [d1, d2] = [
      await create(decided.id, 'd1', 'كنان عارف الصفدي'),
      await create(decided.id, 'd2', 'عارف كنان'),
    ];
    const [u1, u2] = [
      await create(undone.id, 'u1', 'وسيم ناظم العقلة'),
      await create(undone.id, 'u2', 'ناظم وسيم'),
    ];
    const [h1, h2] = [
      await create(byHand.id, 'h1', 'رامي فاضل البقاعي'),
      await create(byHand.id, 'h2', 'فاضل رامي'),
    ];
    await create(apart.id, 'a1', 'زياد مروان القصير');
    await create(apart.id, 'a2', 'مروان زياد');
    const decisions = new DecisionRepository(ctx.store.db);
    const at = '2026-01-02T00:00:00.000Z';
    await decisions.insert({
      recordA: d1.id,
      recordB: d2.id,
      decision: 'match',
      reviewerId: 'reviewer-1',
      decidedAt: at,
    });
    const first = await decisions.insert({
      recordA: u1.id,
      recordB: u2.id,
      decision: 'match',
      reviewerId: 'reviewer-1',
      decidedAt: at,
    });
    const later = await decisions.insert({
      recordA: u1.id,
      recordB: u2.id,
      decision: 'non_match',
      reviewerId: 'reviewer-2',
      decidedAt: '2026-01-03T00:00:00.000Z',
    });
    await decisions.supersede(first.id, later.id);
    await services().registry.createPerson([h1.id, h2.id], 'reviewer-1', { note: 'synthetic' });
    const joined = await new TracingRepository(ctx.store.db, ctx.store.capabilities).listsJoinedByPeople(
      [decided.id, undone.id, byHand.id, apart.id],
      ['manual', 'review_decision'],
    );
    expect([...joined].sort()).toEqual([decided.id, byHand.id].sort());
  });

  it('takes a list as naming somebody twice once a person has joined two of its records by hand', async () => {
    // Synthetic: namesakes as above (other names, other number), but a reviewer has already made one person of two
    // other lines of the register (written too differently for the model to join): the register names somebody twice,
    // so it is no list that names each person once, and the loop links as `athar registry link` would (its mustLink).
    const { once, other, create, born, taken, both } = await namesakes(
      'synthetic register, one man twice',
      'synthetic third register',
      {
        first_name: 'باسل',
        father_name: 'حمدان',
        family_name: 'الزعفقي',
        birth_date: '1979-05-02',
        arrest_date: '2013-07-14',
        detainee_number: '5532',
      },
    );
    const a = await create(once.id, 'twice-born', born);
    const b = await create(once.id, 'twice-taken', taken);
    const c = await create(once.id, 'twice-c', { full_name: 'نادر سليم الحمصي', birth_year: '1981' });
    const d = await create(once.id, 'twice-d', { full_name: 'ماهر كمال الدرويش', arrest_date: '2015-02-02' });
    await services().tracing.tracer.processPending();
    const links = new RecordLinkRepository(ctx.store.db);
    const person = async (id: string) => (await links.active(id))?.personId;
    expect(await person(c.id)).not.toBe(await person(d.id));
    await services().registry.createPerson([c.id, d.id], 'reviewer-1', {
      note: 'synthetic: one man, written twice',
    });
    const x = await create(other.id, 'twice-both', both);
    await services().tracing.tracer.processPending();

    expect(await person(x.id)).toBe(await person(b.id));
    expect(await person(a.id)).toBe(await person(b.id));
  });

  it('turns a card naming a registry record (branch and detainee number) into a proposal, never the number alone', async () => {
    const source = await new SourceRepository(ctx.store.db).findOrCreate(
      'synthetic branch register',
      'registry',
    );
    const made = await services().registry.createRecord(
      {
        sourceId: source.id,
        kind: 'registry_line',
        externalId: 'synthetic-card-1',
        fields: { full_name: 'سامر خالد الحلبي', arresting_branch: '215', detainee_number: '٤٤٢١' },
      },
      null,
    );
    await services().tracing.tracer.processPending();
    const person = (await new RecordLinkRepository(ctx.store.db).active(made.id))?.personId;
    const folder = mkdirs(ctx.dir, 'cards');
    fs.writeFileSync(path.join(folder, 'body-a.jpg'), await syntheticPhoto(31, 640, 480));
    fs.writeFileSync(path.join(folder, 'body-b.jpg'), await syntheticPhoto(32, 640, 480));
    await ingest(ctx, { paths: [folder], actor: 'documenter-1', decoder: new SharpImageDecoder() });
    const items = await ctx.store.db.selectFrom('evidence_items').select(['id', 'original_name']).execute();
    const byName = (name: string) => items.find((i) => i.original_name === name)?.id as string;
    const { catalogue } = services();
    // A card with the detainee number in Latin digits and the branch: the same body as the registry line.
    await catalogue.annotate({
      evidence: byName('body-a.jpg'),
      kind: 'detainee_number',
      value: '4421',
      actor: 'd1',
    });
    await catalogue.annotate({
      evidence: byName('body-a.jpg'),
      kind: 'branch_number',
      value: '215',
      actor: 'd1',
    });
    // Another card with the same detainee number and no branch: a number alone names nobody.
    await catalogue.annotate({
      evidence: byName('body-b.jpg'),
      kind: 'detainee_number',
      value: '4421',
      actor: 'd1',
    });
    const traced = await services().tracing.tracer.processPending();
    expect(traced.labels).toBeGreaterThanOrEqual(2);
    const proposals = await ctx.store.db
      .selectFrom('identifications')
      .select(['evidence_id', 'person_id', 'proposed_by', 'status', 'basis'])
      .execute();
    expect(proposals).toEqual([
      expect.objectContaining({
        evidence_id: byName('body-a.jpg'),
        person_id: person,
        proposed_by: 'system:matcher',
        status: 'proposed',
      }),
    ]);
    expect(proposals[0]?.basis).toMatch(/detainee number ٤٤٢١, branch branch-215/);
  });

  it("proposes a card naming the branch by its agency alone (الجوية) for that agency's branch, not another's", async () => {
    const source = await new SourceRepository(ctx.store.db).findOrCreate(
      'synthetic air force register',
      'registry',
    );
    const line = (externalId: string, full_name: string, arresting_branch: string) =>
      services().registry.createRecord(
        {
          sourceId: source.id,
          kind: 'registry_line',
          externalId,
          fields: { full_name, arresting_branch, detainee_number: '6388' },
        },
        null,
      );
    // Synthetic: the number 6388 in the Air Force Intelligence's Mezzeh branch and in Military Intelligence's 215.
    const mezzeh = await line(
      'synthetic-afi-1',
      'عبد الرحمن محمد علي الجزائري',
      'فرع التحقيق في المخابرات الجوية - مطار المزة',
    );
    await line('synthetic-mi-1', 'ماهر سامر الخطيب', '215');
    await services().tracing.tracer.processPending();
    const person = (await new RecordLinkRepository(ctx.store.db).active(mezzeh.id))?.personId;
    const folder = mkdirs(ctx.dir, 'cards-agency');
    fs.writeFileSync(path.join(folder, 'body-agency.jpg'), await syntheticPhoto(35, 640, 480));
    await ingest(ctx, { paths: [folder], actor: 'documenter-1', decoder: new SharpImageDecoder() });
    const item = await ctx.store.db
      .selectFrom('evidence_items')
      .select('id')
      .where('original_name', '=', 'body-agency.jpg')
      .executeTakeFirstOrThrow();
    const { catalogue } = services();
    await catalogue.annotate({ evidence: item.id, kind: 'detainee_number', value: '6388', actor: 'd1' });
    await catalogue.annotate({ evidence: item.id, kind: 'branch_number', value: 'الجوية', actor: 'd1' });
    await services().tracing.tracer.processPending();
    const proposals = await ctx.store.db
      .selectFrom('identifications')
      .select(['evidence_id', 'person_id', 'basis'])
      .where('evidence_id', '=', item.id)
      .execute();
    expect(proposals).toEqual([expect.objectContaining({ person_id: person })]);
    expect(proposals[0]?.basis).toMatch(/detainee number 6388, branch afi-mezzeh/);
  });

  it('proposes a card already labelled when the registry record it names arrives later', async () => {
    const folder = mkdirs(ctx.dir, 'cards-first');
    fs.writeFileSync(path.join(folder, 'body-c.jpg'), await syntheticPhoto(33, 640, 480));
    await ingest(ctx, { paths: [folder], actor: 'documenter-1', decoder: new SharpImageDecoder() });
    const card = (
      await ctx.store.db
        .selectFrom('evidence_items')
        .select('id')
        .where('original_name', '=', 'body-c.jpg')
        .executeTakeFirstOrThrow()
    ).id;
    const { catalogue } = services();
    await catalogue.annotate({ evidence: card, kind: 'detainee_number', value: '7710', actor: 'd1' });
    await catalogue.annotate({ evidence: card, kind: 'branch_number', value: '215', actor: 'd1' });
    await services().tracing.tracer.processPending();
    const proposed = () =>
      ctx.store.db
        .selectFrom('identifications')
        .select('person_id')
        .where('evidence_id', '=', card)
        .execute();
    expect(await proposed()).toEqual([]);
    const source = await new SourceRepository(ctx.store.db).findOrCreate(
      'synthetic branch register',
      'registry',
    );
    // Synthetic: a registry line with the card's number and branch, and one with a number no card carries.
    const [named] = await Promise.all(
      [
        { externalId: 'synthetic-card-2', full_name: 'وائل حسن العمر', detainee_number: '٧٧١٠' },
        { externalId: 'synthetic-card-3', full_name: 'زياد نزار الخطيب', detainee_number: '٥٥٠٢' },
      ].map(({ externalId, ...fields }) =>
        services().registry.createRecord(
          {
            sourceId: source.id,
            kind: 'registry_line',
            externalId,
            fields: { ...fields, arresting_branch: '215' },
          },
          null,
        ),
      ),
    );
    const traced = await services().tracing.tracer.processPending();
    expect(traced.records).toBe(2);
    const person = (await new RecordLinkRepository(ctx.store.db).active(named?.id as string))?.personId;
    expect(await proposed()).toEqual([{ person_id: person }]);
  });
});
