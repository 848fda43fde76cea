/** A step of the match-weight explanation as the review API sends it. */
export interface WaterfallStep {
  field: string;
  level: string;
  weight: number;
  tfAdjustment?: number;
}

/** One bar of the waterfall chart: it spans [from, to] in log2 odds; `kind` colours it. */
export interface WaterfallBar {
  key: string;
  field: string;
  level?: string;
  weight: number;
  range: [number, number];
  kind: 'prior' | 'for' | 'against' | 'total';
}

/**
 * Turns prior + steps into floating bars: each step starts where the running total stood and ends where it
 * moves it, so the chart reads left to right (or right to left) as the evidence accumulates. Fields that add
 * nothing (missing on one side) are left out to keep the chart readable at 360 px.
 */
export function waterfallBars(prior: number | { weight: number }, steps: WaterfallStep[]): WaterfallBar[] {
  const start = typeof prior === 'number' ? prior : prior.weight;
  const bars: WaterfallBar[] = [
    { key: 'prior', field: 'prior', weight: start, range: [0, start], kind: 'prior' },
  ];
  let running = start;
  for (const step of steps) {
    const weight = step.weight + (step.tfAdjustment ?? 0);
    if (weight === 0) continue;
    const from = running;
    running += weight;
    bars.push({
      key: step.field,
      field: step.field,
      level: step.level,
      weight,
      range: [from, running],
      kind: weight > 0 ? 'for' : 'against',
    });
  }
  bars.push({ key: 'total', field: 'total', weight: running, range: [0, running], kind: 'total' });
  return bars;
}
