/**
 * The benchmark harness. Each suite (bench/suites/<name>.ts) runs in its own process so its peak memory is its
 * own; it prints its rows as one JSON line prefixed `BENCH_RESULT `. bench/run.ts collects and prints them.
 */
import { performance } from 'node:perf_hooks';

export interface BenchRow {
  suite: string;
  /** What was measured, e.g. "token-pair scores". */
  name: string;
  /** The stated size, e.g. "1M pairs". */
  size: string;
  /** Items per second, with the item's name. */
  throughput?: { value: number; unit: string };
  p50Ms?: number;
  p95Ms?: number;
  /** Peak resident memory of the suite's process so far (MiB); filled by `report`. */
  peakRssMiB?: number;
  /** This row's throughput (or time) against a baseline measured in the same run: value / baseline. */
  ratio?: { against: string; value: number; goal?: string };
  /** Anything else worth recording (quality figures, counts). */
  extra?: Record<string, number | string | boolean>;
}

export function percentile(sortedOrNot: number[], p: number): number {
  if (sortedOrNot.length === 0) return Number.NaN;
  const sorted = [...sortedOrNot].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Times one call, in milliseconds. */
export async function timeMs<T>(fn: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export function peakRssMiB(): number {
  // resourceUsage().maxRSS is in KiB on Linux.
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

/** Whether the suite was asked for a quick run (smaller sizes, for smoke checks). */
export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/** Emits rows for bench/run.ts; call once per suite at the end. */
export function report(rows: BenchRow[]): void {
  const peak = peakRssMiB();
  for (const row of rows) row.peakRssMiB ??= peak;
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(rows)}\n`);
}
