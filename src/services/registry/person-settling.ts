import type { Capabilities } from '../../store/capabilities.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import type { PersonTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/**
 * After links moved, in the same transaction: a person left with no record is marked merged into the person that
 * took most of its records (so its id keeps answering, with the id it went to), and a merged person that holds
 * records again is no longer merged. `holding`: persons the caller has just linked records to (they hold records,
 * so they need no count). Answers how many of the persons are left with no record.
 */
export async function settlePersons(
  trx: Db,
  personIds: Iterable<string>,
  at: string,
  holding: ReadonlySet<string> = new Set(),
  caps?: Capabilities,
): Promise<number> {
  const ids = [...new Set(personIds)];
  if (ids.length === 0) return 0;
  const links = new RecordLinkRepository(trx, caps);
  // A few queries for any number of persons: a registry-wide run settles thousands in one transaction.
  const others = ids.filter((id) => !holding.has(id));
  const counts = await links.openCounts(others);
  const persons = await links.personsByIds(others);
  const changes: { id: string; into: string | null; at: string | null }[] = [];
  const emptied: PersonTable[] = [];
  for (const person of persons) {
    if ((counts.get(person.id) ?? 0) > 0) {
      if (person.merged_into !== null) changes.push({ id: person.id, into: null, at: null });
    } else emptied.push(person);
  }
  await links.unmerge(ids.filter((id) => holding.has(id)));
  const wentMany = await links.whereRecordsWentMany(emptied.map((p) => p.id));
  for (const person of emptied) {
    const went = wentMany.get(person.id) ?? new Map<string, number>();
    const into = [...went.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
    if (into !== person.merged_into) changes.push({ id: person.id, into, at: into ? at : null });
  }
  await links.setMergedIntoMany(changes);
  return emptied.length;
}

/** The person an id names now: itself, or the person it was merged into (followed to the end). */
export async function resolvePersonId(db: Db, id: string): Promise<string | undefined> {
  const links = new RecordLinkRepository(db);
  let current = id;
  for (let hop = 0; hop < 64; hop++) {
    const person = await links.person(current);
    if (!person) return undefined;
    if (person.merged_into === null || person.merged_into === current) return current;
    current = person.merged_into;
  }
  return current;
}
