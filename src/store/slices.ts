/**
 * A list cut into consecutive parts of at most `size` items, in order (the last part may be shorter; no parts for
 * no items). Repositories and services ask about, insert or update long lists a part per statement: one statement
 * may bind only so many parameters (SQLite 32,766, PostgreSQL 65,535), and a long `IN (…)` list is costly to bind
 * and plan. `size` must be a whole number of at least 1.
 */
export function slices<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`slices: size must be a whole number ≥ 1 (got ${size})`);
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}
