import { comparisons, contexts, familyNameAt } from './comparisons.js';
import { probabilityOf } from './model.js';
import type { Scorer } from './scorer.js';

/** Ends the level of a woman's family names that differ (model.womanFamilyWeight): `different_for_a_woman`. */
export const forAWoman = '_for_a_woman';

export interface ExplanationStep {
  comparison: string;
  level: string;
  valueA: string;
  valueB: string;
  /** log2(m/u) of the level (0 when a side is missing). */
  weight: number;
  /** Term-frequency adjustment (log2), when the level carries one. */
  termFrequency?: number;
  /** Set when the adjustment is that of a name combination (then shown on first_name only). */
  termFrequencyOf?: 'first_name+family_name' | 'first_name+father_name+family_name';
  /** Running total after this step, prior included. */
  cumulative: number;
}

/** The family line's joint step, present when family and father agree (see comparisons.familyLine). */
export interface FamilyLineStep {
  /**
   * log2(m/u) of the agreeing family line, u from how many records share this father + family name; the
   * family-line fields then add nothing on their own.
   */
  weight: number;
}

/** Which record of a pair writes the family name first, read from their names: a (the query) or b. */
export type NameOrder = 'a_family_first' | 'b_family_first';

/** The waterfall of one pair: prior, each field's weight and term-frequency adjustment, total, probability. */
export interface Explanation {
  recordA: string;
  recordB: string;
  modelVersion: string;
  prior: { weight: number; probability: number };
  familyLine?: FamilyLineStep;
  /** Whom the pair was weighed against: strangers, people of one family name, or of one family line. */
  context: (typeof contexts)[number];
  steps: ExplanationStep[];
  /** Sum of field weights and adjustments: the log2 Bayes factor. */
  bayesFactor: number;
  /** Prior plus Bayes factor (log2 odds). */
  total: number;
  probability: number;
  /**
   * Set when the match read one record's names in the other order of writing (a register line written family
   * first); its cost is then the last step, `name_order`.
   */
  nameOrder?: NameOrder;
}

/** Explains a pair of records held by the scorer's features; `records` sets the prior (the data set's size). */
export function explainPair(scorer: Scorer, a: number, b: number, records: number): Explanation {
  const f = scorer.features;
  const bayesFactor = scorer.score(a, b);
  const levels = scorer.lastLevels().slice();
  const context = scorer.context();
  const within = context === 2;
  const joint = scorer.lastJointAdjustment();
  const adjustments = scorer.adjustmentsOfLast(a, b);
  const womanShift = scorer.lastWomanFamilyShift();
  const prior = scorer.model.priorWeight(records);
  const line = within ? scorer.lastLineWeight() : 0;
  let running = prior + line;
  const steps = comparisons.map((comparison, c) => {
    const level = levels[c] as number;
    const woman = c === familyNameAt ? womanShift : 0;
    const weight = scorer.model.weight(c, level, context) + woman;
    const tf = adjustments.get(c);
    running += weight + (tf ?? 0);
    const step: ExplanationStep = {
      comparison: comparison.name,
      // A woman's family names that differ weigh less (model.womanFamilyWeight): a level of its own to the reader.
      level: `${comparison.levels[level] ?? String(level)}${woman !== 0 ? forAWoman : ''}`,
      valueA: comparison.show(f, a),
      valueB: comparison.show(f, b),
      weight: round(weight),
      cumulative: round(running),
    };
    if (tf !== undefined) step.termFrequency = round(tf);
    if (tf !== undefined && joint && comparison.name === 'first_name') {
      step.termFrequencyOf = within ? 'first_name+father_name+family_name' : 'first_name+family_name';
    }
    return step;
  });
  const total = prior + bayesFactor;
  return {
    recordA: f.ids[a] ?? String(a),
    recordB: f.ids[b] ?? String(b),
    modelVersion: scorer.model.version,
    prior: { weight: round(prior), probability: probabilityOf(prior) },
    ...(within ? { familyLine: { weight: round(line) } } : {}),
    context: contexts[context],
    steps,
    bayesFactor: round(bayesFactor),
    total: round(total),
    probability: probabilityOf(total),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
}

/** The waterfall as text lines (CLI). */
export function formatExplanation(e: Explanation): string {
  const rows: string[][] = [['step', 'level', 'A', 'B', 'weight', 'tf adj.', 'running']];
  rows.push(['prior', '', '', '', signed(e.prior.weight), '', signed(e.prior.weight)]);
  if (e.familyLine) {
    const running = e.prior.weight + e.familyLine.weight;
    rows.push(['family line', 'agrees', '', '', signed(e.familyLine.weight), '', signed(running)]);
  }
  for (const s of e.steps) {
    if (s.level === 'missing' && !s.valueA && !s.valueB) continue;
    rows.push([
      s.comparison,
      s.level,
      s.valueA,
      s.valueB,
      signed(s.weight),
      s.termFrequency === undefined
        ? ''
        : `${signed(s.termFrequency)}${s.termFrequencyOf ? ' (whole name)' : ''}`,
      signed(s.cumulative),
    ]);
  }
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  const lines = rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  lines.push('');
  lines.push(`records ${e.recordA} and ${e.recordB} — model ${e.modelVersion}`);
  if (e.context === 'same_family_line') {
    lines.push(
      'family line agrees: its fields count jointly; the rest is weighed against siblings and namesakes',
    );
  } else if (e.context === 'same_family_name') {
    lines.push('family name agrees: the other fields are weighed against relatives and namesakes');
  }
  lines.push(
    `Bayes factor ${signed(e.bayesFactor)} (log2), total ${signed(e.total)}, match probability ${e.probability.toFixed(4)}`,
  );
  return lines.join('\n');
}
