/**
 * From the persons the registry holds now to the persons a linkage run says: which person keeps each cluster, and
 * which records move. Pure; the tracing job applies it.
 *
 * Each cluster keeps one of the persons that hold its records — preferring a person someone built by hand (its links
 * are people's decisions: moving them would rewrite their provenance), then the one holding most of the cluster,
 * then the oldest id — and a person keeps at most one cluster. A cluster no person is left for gets a new person.
 * So a run that changes nothing moves nothing, and a person's id stays with most of its records.
 */

import { orderByKey } from './sort.js';

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
  // The (cluster, person) overlaps: records ordered by person, then stably by cluster (two radix sorts), so each
  // overlap is one run. A map of maps and a sort of a million options by id took 2.3 s at 1M records.
  const byPerson = orderByKey(Uint32Array.from(current.personOf), n);
  const clusterKeys = new Uint32Array(n);
  for (let k = 0; k < n; k++) clusterKeys[k] = clusterOf[byPerson[k] as number] as number;
  const byCluster = orderByKey(clusterKeys, n);
  const oc: number[] = [];
  const op: number[] = [];
  const ocount: number[] = [];
  for (let k = 0; k < n; k++) {
    const r = byPerson[byCluster[k] as number] as number;
    const c = clusterOf[r] as number;
    const p = current.personOf[r] as number;
    const last = oc.length - 1;
    if (last >= 0 && oc[last] === c && op[last] === p) ocount[last] = (ocount[last] as number) + 1;
    else {
      oc.push(c);
      op.push(p);
      ocount.push(1);
    }
  }
  // Which person keeps which cluster is decided greedily in one order (person by hand, then most records, then
  // oldest id, then cluster); options sharing no cluster or person (through any chain) do not affect each other,
  // so each connected group is ordered on its own — most are one option, or one cluster's few.
  const persons = current.personIds.length;
  const parent = new Int32Array(n + persons);
  for (let x = 0; x < parent.length; x++) parent[x] = x;
  const root = (x: number): number => {
    let y = x;
    while (parent[y] !== y) {
      parent[y] = parent[parent[y] as number] as number;
      y = parent[y] as number;
    }
    return y;
  };
  for (let o = 0; o < oc.length; o++) {
    const a = root(oc[o] as number);
    const b = root(n + (op[o] as number));
    if (a !== b) parent[a] = b;
  }
  const groups = new Map<number, number[]>();
  for (let o = 0; o < oc.length; o++) {
    const g = root(oc[o] as number);
    const list = groups.get(g);
    if (list) list.push(o);
    else groups.set(g, [o]);
  }
  const keeperOf = new Int32Array(n).fill(-1);
  const kept = new Uint8Array(persons);
  const assigned = new Uint8Array(n);
  for (const group of groups.values()) {
    if (group.length > 1)
      group.sort(
        (x, y) =>
          (current.human[op[y] as number] as number) - (current.human[op[x] as number] as number) ||
          (ocount[y] as number) - (ocount[x] as number) ||
          compareIds(
            current.personIds[op[x] as number] as string,
            current.personIds[op[y] as number] as string,
          ) ||
          (oc[x] as number) - (oc[y] as number),
      );
    for (const o of group) {
      const c = oc[o] as number;
      const p = op[o] as number;
      if (assigned[c] === 1 || kept[p] === 1) continue;
      keeperOf[c] = p;
      assigned[c] = 1;
      kept[p] = 1;
    }
  }
  const moves = new Map<number, ClusterMove>();
  for (let r = 0; r < n; r++) {
    const c = clusterOf[r] as number;
    const keeper = keeperOf[c] as number;
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
