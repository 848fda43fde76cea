import type { Compilable, CompiledQuery, RawBuilder } from 'kysely';
import type { Db } from './store.js';

/** Stands for an argument while a query is compiled: a string no caller can pass. */
const slot = (index: number) => `\u0000athar-argument-${index}\u0000`;

/**
 * A query that Kysely builds and compiles once per database handle, then runs with new argument values. Building
 * the operation tree and compiling it to SQL costs tens of microseconds a query, which on the hottest reads (the
 * person page's six) is as much as SQLite takes to answer them. `build` receives placeholders for the arguments
 * and must pass them through as plain values (comparisons, not parts of names or `in` lists).
 */
export function prepared<R, A extends string[]>(
  build: (db: Db, ...args: A) => Compilable<R> | RawBuilder<R>,
): (db: Db, ...args: A) => Promise<R[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<R>; argumentAt: (number | undefined)[] }>();
  return async (db, ...args) => {
    let entry = compiled.get(db);
    if (!entry) {
      const slots = args.map((_, i) => slot(i)) as A;
      const built = build(db, ...slots);
      const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      const argumentAt = query.parameters.map((p) => {
        const i = typeof p === 'string' ? slots.indexOf(p) : -1;
        return i < 0 ? undefined : i;
      });
      if (new Set(argumentAt.filter((i) => i !== undefined)).size < args.length) {
        // A placeholder that did not come out as a parameter was folded into the SQL: not preparable.
        throw new Error(`prepared query does not take all its arguments as parameters: ${query.sql}`);
      }
      entry = { query, argumentAt };
      compiled.set(db, entry);
    }
    const { query, argumentAt } = entry;
    const parameters = query.parameters.map((p, i) => {
      const at = argumentAt[i];
      return at === undefined ? p : args[at];
    });
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}
