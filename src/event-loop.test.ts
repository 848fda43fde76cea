import { describe, expect, it } from 'vitest';
import { turnsEvery } from './event-loop.js';

/** A step of work: the thread busy for `ms`. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe('turnsEvery', () => {
  it('gives a turn of the event loop only once its time has passed since the last one', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      // Steps well inside the slice: no turn, so the timer, long due, never runs.
      const rarely = turnsEvery(60_000);
      for (let k = 0; k < 5; k++) {
        work(2);
        await rarely();
      }
      expect(ticks).toBe(0);
      // Steps past the slice: a turn after each, and the timer runs between them.
      const often = turnsEvery(1);
      for (let k = 0; k < 3; k++) {
        work(2);
        await often();
      }
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
  });
});
