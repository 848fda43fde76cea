/**
 * Capture histories → the incomplete 2^K contingency table of each stratum, and what the table says before any
 * model is fitted: list sizes, overlaps, and the conditions under which no estimate should be given (a list with
 * no one, no one on two lists) or only a guarded one (few overlaps, a list inside another, empty cells).
 */

/** One person (or `count` people) and the lists they are on: bit j of `mask` is list j. */
export interface CaptureHistory {
  mask: number;
  stratum?: string;
  count?: number;
}

/** The stratum name used when histories carry none. */
export const ALL = 'all';

export class EstimateInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EstimateInputError';
  }
}

/** Counts by capture pattern: `counts[mask]`, length 2^K; `counts[0]` (nobody saw them) is always 0 here. */
export interface StratumTable {
  stratum: string;
  lists: number;
  counts: Float64Array;
}

/** Tallies histories into one table per stratum, strata in order of first appearance. */
export function tally(lists: number, histories: Iterable<CaptureHistory>): StratumTable[] {
  if (!Number.isInteger(lists) || lists < 1 || lists > 16) {
    throw new EstimateInputError(`the number of lists must be a whole number from 1 to 16 (got ${lists})`);
  }
  const cells = 1 << lists;
  const tables = new Map<string, Float64Array>();
  let index = 0;
  let lastStratum: string | undefined;
  let last: Float64Array | undefined;
  for (const h of histories) {
    const mask = h.mask;
    if (!Number.isInteger(mask) || mask <= 0 || mask >= cells) {
      throw new EstimateInputError(
        mask === 0
          ? `history ${index + 1} is on no list: a capture history names at least one list`
          : `history ${index + 1} has list mask ${mask}, outside 1…${cells - 1} for ${lists} lists`,
      );
    }
    const count = h.count ?? 1;
    if (!Number.isInteger(count) || count < 0) {
      throw new EstimateInputError(`history ${index + 1} has count ${count}: counts are whole numbers ≥ 0`);
    }
    const stratum = h.stratum ?? ALL;
    let table: Float64Array | undefined;
    if (stratum === lastStratum) table = last;
    else {
      table = tables.get(stratum);
      if (!table) {
        table = new Float64Array(cells);
        tables.set(stratum, table);
      }
      lastStratum = stratum;
      last = table;
    }
    table![mask] = table![mask]! + count;
    index++;
  }
  return [...tables].map(([stratum, counts]) => ({ stratum, lists, counts }));
}

export interface TableSummary {
  observed: number;
  listSizes: number[];
  /** overlaps[i][j]: people on both list i and list j. */
  overlaps: number[][];
  /** People on two lists or more. */
  onSeveral: number;
  emptyCells: number;
  smallCells: number;
  cells: number;
}

export function summarise(table: StratumTable): TableSummary {
  const k = table.lists;
  const counts = table.counts;
  const listSizes = new Array<number>(k).fill(0);
  const overlaps = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let observed = 0;
  let onSeveral = 0;
  let emptyCells = 0;
  let smallCells = 0;
  for (let mask = 1; mask < counts.length; mask++) {
    const c = counts[mask]!;
    observed += c;
    if (c === 0) emptyCells++;
    if (c < 5) smallCells++;
    if (c === 0) continue;
    if ((mask & (mask - 1)) !== 0) onSeveral += c;
    for (let i = 0; i < k; i++) {
      if (!(mask & (1 << i))) continue;
      listSizes[i]! += c;
      for (let j = i + 1; j < k; j++) if (mask & (1 << j)) overlaps[i]![j]! += c;
    }
  }
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) overlaps[i]![j] = overlaps[j]![i]!;
  return { observed, listSizes, overlaps, onSeveral, emptyCells, smallCells, cells: counts.length - 1 };
}

export type RefusalCode =
  | 'too-few-lists'
  | 'no-records'
  | 'empty-list'
  | 'no-overlaps'
  | 'not-estimable'
  | 'linkage-sample-refused';

export interface Refusal {
  code: RefusalCode;
  message: string;
}

export type WarningCode =
  | 'few-overlaps'
  | 'subset'
  | 'contains-all'
  | 'sparse-cells'
  | 'poor-fit'
  | 'no-upper-bound'
  | 'lower-bound-at-observed'
  | 'models-disagree'
  | 'not-converged'
  | 'classes-full'
  | 'methods-disagree'
  | 'linkage-samples';

export interface EstimateWarning {
  code: WarningCode;
  message: string;
}

/** A pair of lists sharing fewer people than this is named in a warning. */
export const FEW_OVERLAPS = 5;
/** Fewer people than this on two lists or more, all told, is named in a warning. */
export const FEW_ON_SEVERAL = 20;

/** Why a stratum gets no number at all, if it does not. */
export function refusalOf(summary: TableSummary, names: readonly string[]): Refusal | undefined {
  if (names.length < 3) {
    return {
      code: 'too-few-lists',
      message: `multiple systems estimation needs at least three lists (got ${names.length}): with two, the dependence between them cannot be told from the data`,
    };
  }
  if (summary.observed === 0) return { code: 'no-records', message: 'no one is on any list in this stratum' };
  const empty = names.filter((_, j) => summary.listSizes[j] === 0);
  if (empty.length > 0) {
    return {
      code: 'empty-list',
      message: `${empty.map((n) => `list ${n}`).join(' and ')} ${empty.length === 1 ? 'has' : 'have'} no records in this stratum; estimate without ${empty.length === 1 ? 'it' : 'them'}`,
    };
  }
  if (summary.onSeveral === 0) {
    return {
      code: 'no-overlaps',
      message:
        'no one is on two lists: the lists never meet, so nothing says how much each one misses (there is no estimate, not even a large one)',
    };
  }
  return undefined;
}

/** The data's own warnings, before any model. */
export function tableWarnings(
  table: StratumTable,
  summary: TableSummary,
  names: readonly string[],
): EstimateWarning[] {
  const warnings: EstimateWarning[] = [];
  const k = table.lists;
  const few: string[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const o = summary.overlaps[i]![j]!;
      if (o < FEW_OVERLAPS) few.push(`${names[i]} and ${names[j]} share ${o}`);
    }
  }
  if (few.length > 0 || summary.onSeveral < FEW_ON_SEVERAL) {
    const parts = [...few];
    if (summary.onSeveral < FEW_ON_SEVERAL)
      parts.push(`only ${summary.onSeveral} people are on two lists or more`);
    warnings.push({
      code: 'few-overlaps',
      message: `too few overlaps: ${parts.join('; ')}. The estimate rests on these few people and the interval may understate how little is known`,
    });
  }
  for (let i = 0; i < k; i++) {
    const size = summary.listSizes[i]!;
    if (size === summary.observed && size > 0) {
      warnings.push({
        code: 'contains-all',
        message: `list ${names[i]} contains every person observed: the other lists never find anyone it missed, so the log-linear models cannot estimate what all of them missed`,
      });
      continue;
    }
    for (let j = 0; j < k; j++) {
      // A list holding everyone is warned of once, not as the superset of each of the others.
      if (i === j || size === 0 || summary.listSizes[j] === summary.observed) continue;
      if (summary.overlaps[i]![j] === size && !(size === summary.listSizes[j] && j < i)) {
        warnings.push({
          code: 'subset',
          message:
            size === summary.listSizes[j]
              ? `lists ${names[i]} and ${names[j]} hold the same people: they are one list, not two independent looks`
              : `list ${names[i]} is a subset of list ${names[j]}: everyone on ${names[i]} is also on ${names[j]}, so ${names[i]} may have been compiled from ${names[j]} and the two are not independent sources`,
        });
      }
    }
  }
  if (summary.emptyCells > 0 || summary.smallCells > summary.cells / 2) {
    warnings.push({
      code: 'sparse-cells',
      message: `sparse cells: ${summary.emptyCells} of the ${summary.cells} capture patterns are empty and ${summary.smallCells} hold fewer than 5 people; interaction terms resting on them are poorly determined`,
    });
  }
  return warnings;
}
