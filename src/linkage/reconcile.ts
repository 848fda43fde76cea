/**
 * From the persons the registry holds now to the persons a linkage run says: which person keeps each cluster, and
 * which records move. Pure; the tracing job applies it.
 *
 * Each cluster keeps one of the persons that hold its records — preferring a person someone built by hand (its links
 * are people's decisions: moving them would rewrite their provenance), then the one holding most of the cluster,
 * then the oldest id — and a person keeps at most one cluster. A cluster no person is left for gets a new person.
 * So a run that changes nothing moves nothing, and a person's id stays with most of its records.
 */

export interface CurrentPersons {
  /** For each record, the index of the person it belongs to now (every record belongs to one). */
  personOf: Int32Array;
  /** The persons' ids, by index (ties are broken by id, so the result does not depend on the order read). */
  personIds: readonly string[];
  /** Per person: 1 when one of its links is a person's decision (a review, a manual link). */
  human: Uint8Array;
}

export interface ClusterMove {
  /** The cluster's representative record (as in clusterOf). */
  cluster: number;
  /** The person that keeps the cluster, or -1 for a new person. */
  keeper: number;
  /** The cluster's records that are not in the keeper now. */
  records: number[];
}

export function reconcile(clusterOf: Int32Array, current: CurrentPersons): ClusterMove[] {
  const n = clusterOf.length;
  // Overlap of each (cluster, person): counted through a map keyed by both.
  const overlap = new Map<number, Map<number, number>>();
  for (let r = 0; r < n; r++) {
    const c = clusterOf[r] as number;
    const p = current.personOf[r] as number;
    let byPerson = overlap.get(c);
    if (!byPerson) {
      byPerson = new Map();
      overlap.set(c, byPerson);
    }
    byPerson.set(p, (byPerson.get(p) ?? 0) + 1);
  }
  const options: { c: number; p: number; count: number }[] = [];
  for (const [c, byPerson] of overlap) for (const [p, count] of byPerson) options.push({ c, p, count });
  options.sort(
    (x, y) =>
      (current.human[y.p] as number) - (current.human[x.p] as number) ||
      y.count - x.count ||
      compareIds(current.personIds[x.p] as string, current.personIds[y.p] as string) ||
      x.c - y.c,
  );
  const keeperOf = new Map<number, number>();
  const kept = new Set<number>();
  for (const o of options) {
    if (keeperOf.has(o.c) || kept.has(o.p)) continue;
    keeperOf.set(o.c, o.p);
    kept.add(o.p);
  }
  const moves = new Map<number, ClusterMove>();
  for (let r = 0; r < n; r++) {
    const c = clusterOf[r] as number;
    const keeper = keeperOf.get(c) ?? -1;
    if (keeper === current.personOf[r]) continue;
    let move = moves.get(c);
    if (!move) {
      move = { cluster: c, keeper, records: [] };
      moves.set(c, move);
    }
    move.records.push(r);
  }
  return [...moves.values()].sort((a, b) => a.cluster - b.cluster);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
