import { expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { describeEachDialect } from '../../../test/stores.js';
import { servicesOf } from '../../services/index.js';
import { PersonPageRepository } from './person-page.js';
import { SourceRepository } from './sources.js';
import { UserRepository } from './users.js';

// Synthetic data only.
describeEachDialect('person page reads', (store, dialect) => {
  it('reads records with links, events and claims on the person and its records, relations both ways', async () => {
    const s = store();
    const ctx = await evidenceContext(s);
    const { registry } = servicesOf(ctx);
    const user = await new UserRepository(s.db).create({
      username: 'page',
      passwordHash: 'x',
      role: 'admin',
    });
    const source = await new SourceRepository(s.db).create({ name: 'synthetic list', kind: 'list' });
    const record = async (externalId: string, name: string) =>
      (
        await registry.createRecord(
          {
            sourceId: source.id,
            kind: 'registry_line',
            externalId,
            fields: { full_name: name, birth_year: '1980' },
          },
          user.id,
        )
      ).id;
    const r1 = await record('1', 'Synthetic Person One');
    const r2 = await record('2', 'Synthetic Person Two');
    const r3 = await record('3', 'Synthetic Person Three');
    const person = await registry.createPerson([r1, r2], user.id);
    const other = await registry.createPerson([r3], user.id);
    await registry.addEvent({ personId: person.id, type: 'arrest', dateStart: '2012-03' }, user.id);
    await registry.addEvent({ recordId: r2, type: 'arrest', dateStart: '2011' }, user.id);
    await registry.addEvent({ recordId: r3, type: 'arrest', dateStart: '2013' }, user.id);
    await registry.addAssertion({ personId: person.id, kind: 'information_sought' }, user.id);
    await registry.addAssertion({ recordId: r1, kind: 'seen_in_detention' }, user.id);
    // On the person and on one of its records at once: shown once.
    await registry.addEvent(
      { personId: person.id, recordId: r1, type: 'transfer', dateStart: '2012-05' },
      user.id,
    );
    await registry.addAssertion({ personId: person.id, recordId: r2, kind: 'believed_missing' }, user.id);
    await registry.addRelation(
      { personA: other.id, personB: person.id, type: 'sibling', certainty: 'likely' },
      user.id,
    );

    const pages = new PersonPageRepository(s.db, s.capabilities);
    const page = await pages.load(person.id);
    expect(page?.person.id).toBe(person.id);
    expect(page?.records.map((r) => r.id)).toEqual([r1, r2]);
    expect(page?.records[0]).toMatchObject({
      source_name: 'synthetic list',
      person_id: person.id,
      birth_year: 1980,
      link: { record_id: r1, person_id: person.id, basis: 'manual', linked_by: user.id, unlinked_at: null },
    });
    expect(page?.events.map((e) => e.date_start).sort()).toEqual(['2011', '2012-03', '2012-05']);
    expect(page?.assertions.map((a) => a.kind).sort()).toEqual([
      'believed_missing',
      'information_sought',
      'seen_in_detention',
    ]);
    expect(page?.relations.map((r) => r.type)).toEqual(['sibling']);
    expect(page?.identifications).toEqual([]);
    expect((await pages.load(other.id))?.relations).toHaveLength(1);
    expect(await pages.load('00000000-0000-7000-8000-000000000000')).toBeUndefined();

    if (dialect === 'postgres') {
      // The one-statement read must give exactly the rows of the six separate queries.
      const each = (await (pages as unknown as { loadEach(id: string): Promise<unknown> }).loadEach(
        person.id,
      )) as typeof page;
      const byId = <T extends { id: string }>(rows: T[] | undefined) =>
        [...(rows ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(page?.records).toEqual(each?.records);
      expect(byId(page?.events)).toEqual(byId(each?.events));
      expect(byId(page?.assertions)).toEqual(byId(each?.assertions));
      expect(page?.relations).toEqual(each?.relations);
      expect(page?.person).toEqual(each?.person);
    }
  });
});
