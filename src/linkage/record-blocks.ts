import {
  type BlockingOptions,
  type BlockingRule,
  defaultBlockingOptions,
  keysWithoutName,
  linkingRules,
  overlapKeys,
  type SpellingRule,
  subBlockKeys,
} from './blocking.js';
import type { RecordFeatures } from './features.js';
import { KeyedRecords, packByKey, positionOf } from './sort.js';

/**
 * One linking rule's blocks: a sorted, packed part built in bulk (typed arrays: a million records cost a few bytes
 * each) and a map for records added since. Members of a block ascend, as in blocking's own blocks.
 */
class RuleBlocks {
  keys = new Uint32Array(0);
  starts = new Int32Array(1);
  members = new Int32Array(0);
  readonly recent = new Map<number, number[]>();

  build(
    f: RecordFeatures,
    withoutName: boolean,
    keysOf: (i: number, push: (key: number) => void) => void,
  ): void {
    const list = new KeyedRecords(f.size);
    let owner = 0;
    const push = (key: number) => list.push(key, owner);
    for (let i = 0; i < f.size; i++) {
      if (!withoutName && !f.hasName(i)) continue;
      owner = i;
      keysOf(i, push);
    }
    ({ keys: this.keys, starts: this.starts, members: this.members } = packByKey(list));
    this.recent.clear();
  }

  add(key: number, i: number): void {
    const list = this.recent.get(key);
    if (list) list.push(i);
    else this.recent.set(key, [i]);
  }

  /** The records under `key`, ascending (the packed part, then those added since: added later, so higher). */
  block(key: number): ArrayLike<number> {
    const lo = positionOf(this.keys, key);
    const packed =
      lo >= 0
        ? this.members.subarray(this.starts[lo] as number, this.starts[lo + 1] as number)
        : new Int32Array(0);
    const recent = this.recent.get(key);
    if (!recent) return packed;
    const out = new Int32Array(packed.length + recent.length);
    out.set(packed);
    out.set(recent, packed.length);
    return out;
  }
}

const isSpelling = (rule: BlockingRule | SpellingRule): rule is SpellingRule => 'owner' in rule;

/**
 * The blocks of `athar link` (src/linkage/blocking.ts: the linking rules, their salts and keys, the same handling of
 * oversized blocks), kept per rule as key → records, so that one record's candidate partners are those a full
 * blocking run over the same records would pair it with — no more, no fewer — without running it. The tracing loop
 * links a new registry record by these, so that it gets what `athar link` and `athar registry link` would give it.
 */
export class RecordBlocks {
  private readonly blocks: RuleBlocks[];
  /** valuesOf's blocks, least recently used first, and how many numbers they hold. */
  private readonly values = new Map<number, Int32Array>();
  private valuesHeld = 0;
  private features: RecordFeatures | undefined;

  constructor(
    private readonly rules: readonly (BlockingRule | SpellingRule)[] = linkingRules,
    private readonly options: BlockingOptions = defaultBlockingOptions,
  ) {
    this.blocks = rules.map(() => new RuleBlocks());
  }

  /** Packs the keys of every named record of `f` (and of those without a name, under the rules that key them). */
  build(f: RecordFeatures): void {
    this.clearValues();
    this.rules.forEach((rule, r) => {
      (this.blocks[r] as RuleBlocks).build(f, keysWithoutName(rule), (i, push) => keysOf(rule, f, i, push));
    });
  }

  /** Registers one record added to `f` since the last build. */
  add(f: RecordFeatures, i: number): void {
    const named = f.hasName(i);
    this.rules.forEach((rule, r) => {
      if (!named && !keysWithoutName(rule)) return;
      const blocks = this.blocks[r] as RuleBlocks;
      keysOf(rule, f, i, (key) => blocks.add(key, i));
    });
  }

  /** The records blocking pairs record q with (each once, in no particular order). q must be registered. */
  partners(f: RecordFeatures, q: number): number[] {
    const found = new Set<number>();
    const named = f.hasName(q);
    if (this.features !== f) {
      this.features = f;
      this.clearValues();
    }
    this.rules.forEach((rule, r) => {
      if (!named && !keysWithoutName(rule)) return;
      const blocks = this.blocks[r] as RuleBlocks;
      const spelling = isSpelling(rule) ? rule : undefined;
      const group = spelling ? spelling.group(f, q) : 0;
      keysOf(rule, f, q, (key) => {
        const block = blocks.block(key);
        if (block.length <= 1) return;
        // A spelling rule's filters, as blocking applies them to every pair it emits (BlockEmitter.emit).
        const emit = spelling
          ? (i: number) => {
              if (i === q || found.has(i) || spelling.group(f, i) === group) return;
              if (!spelling.owner(f, q, i, key) || !spelling.admits(f, q, i)) return;
              found.add(i);
            }
          : (i: number) => {
              if (i !== q) found.add(i);
            };
        if (block.length <= this.options.maxBlock) {
          for (let k = 0; k < block.length; k++) emit(block[k] as number);
        } else {
          this.overlapping(f, q, block, this.valuesOf(f, r, key, block), emit);
        }
      });
    });
    return [...found];
  }

  /**
   * The overlap keys and governorate of an oversized block's members, kept between queries: a common name's
   * blocks hold thousands of records at 1M and the loop asks for them record after record (computing these for
   * every query was most of a new record's time). Kept for the latest blocks up to `valuesBudget` numbers; a block
   * that grew since has its new members' values added.
   */
  private valuesOf(f: RecordFeatures, rule: number, key: number, block: ArrayLike<number>): Int32Array {
    const id = rule * 4294967296 + key;
    const kept = this.values.get(id);
    if (kept && kept.length === block.length * width) {
      // Most recently used last.
      this.values.delete(id);
      this.values.set(id, kept);
      return kept;
    }
    if (kept) {
      this.values.delete(id);
      this.valuesHeld -= kept.length;
    }
    // A block only grows between builds (records added since come last): what was kept is still its beginning.
    const values = new Int32Array(block.length * width);
    const from = kept && kept.length < values.length ? kept.length / width : 0;
    if (from > 0) values.set(kept as Int32Array);
    for (let m = from; m < block.length; m++) memberValues(f, block[m] as number, values, m * width);
    this.values.set(id, values);
    this.valuesHeld += values.length;
    for (const [old, v] of this.values) {
      if (this.valuesHeld <= valuesBudget) break;
      this.values.delete(old);
      this.valuesHeld -= v.length;
    }
    return values;
  }

  private clearValues(): void {
    this.values.clear();
    this.valuesHeld = 0;
  }

  /** q's pairs in an oversized block, as BlockEmitter.overlapping and lackingAcross make them. */
  private overlapping(
    f: RecordFeatures,
    q: number,
    block: ArrayLike<number>,
    values: Int32Array,
    emit: (i: number) => void,
  ): void {
    const { maxBlock } = this.options;
    const size = block.length;
    const own = new Int32Array(width);
    memberValues(f, q, own, 0);
    const part: number[] = [];
    for (let s = 0; s < overlapKeys.length; s++) {
      const v = own[s] as number;
      if (v < 0) continue;
      part.length = 0;
      for (let m = 0; m < size; m++) if (values[m * width + s] === v) part.push(block[m] as number);
      if (part.length > maxBlock) this.split(f, q, part.slice(), 0, emit);
      else if (part.length > 1) for (const i of part) emit(i);
    }
    const qLacking = own[lackingAt] === 1;
    if (qLacking) {
      part.length = 0;
      for (let m = 0; m < size; m++) if (values[m * width + lackingAt] === 1) part.push(block[m] as number);
      if (part.length > maxBlock) this.split(f, q, part.slice(), 0, emit);
      else if (part.length > 1) for (const i of part) emit(i);
    }
    // A bare record meets the block's records of its governorate, unless that part is itself oversized.
    const governorate = own[governorateAt] as number;
    if (governorate < 0) return;
    part.length = 0;
    for (let m = 0; m < size; m++) {
      if (values[m * width + governorateAt] !== governorate) continue;
      part.push(qLacking || values[m * width + lackingAt] === 1 ? (block[m] as number) : -1);
    }
    if (part.length > maxBlock * 4) return;
    for (const i of part) if (i >= 0) emit(i);
  }

  /** q's sub-block by the next sub-key (its own value, -1 included: the "unknown" sub-block), as blocking splits. */
  private split(
    f: RecordFeatures,
    q: number,
    part: number[],
    depth: number,
    emit: (i: number) => void,
  ): void {
    if (depth >= subBlockKeys.length) {
      // Sorted-neighbourhood fallback: the `window` records either side of q, in record order.
      const at = part.indexOf(q);
      const w = this.options.window;
      for (let y = Math.max(0, at - w); y <= at + w && y < part.length; y++) emit(part[y] as number);
      return;
    }
    const sub = subBlockKeys[depth] as (typeof subBlockKeys)[number];
    const v = sub.key(f, q);
    const same = part.filter((i) => sub.key(f, i) === v);
    if (same.length > this.options.maxBlock) this.split(f, q, same, depth + 1, emit);
    else if (same.length > 1) for (const i of same) emit(i);
  }
}

/** Per member of an oversized block: each overlap key's value, whether it lacks them all, its governorate. */
const lackingAt = overlapKeys.length;
const governorateAt = lackingAt + 1;
const width = governorateAt + 1;
/** Numbers kept for oversized blocks at most (4 bytes each: 48 MiB). */
const valuesBudget = 12 * 1024 * 1024;

function memberValues(f: RecordFeatures, i: number, out: Int32Array, at: number): void {
  let lacking = 1;
  for (let s = 0; s < overlapKeys.length; s++) {
    const sub = overlapKeys[s] as (typeof overlapKeys)[number];
    const v = sub.key(f, i);
    out[at + s] = v;
    if (v >= 0 && !sub.circumstance) lacking = 0;
  }
  out[at + lackingAt] = lacking;
  out[at + governorateAt] = f.governorate[i] as number;
}

function keysOf(
  rule: BlockingRule | SpellingRule,
  f: RecordFeatures,
  i: number,
  push: (key: number) => void,
): void {
  if (isSpelling(rule)) {
    rule.keys(f, i, push);
    return;
  }
  const key = rule.key(f, i);
  if (key >= 0) push(key);
}
