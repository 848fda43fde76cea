import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

// uuid asks the operating system for 16 random bytes per id (about 2 µs each: 1.5 s of a national linking run's
// writing); here they come from a pool filled 4 KiB at a time, from the same source.
const pool = new Uint8Array(4096);
let used = pool.length;
// Within one millisecond ids count up from a random start, as uuid's own state does: they sort by creation.
const state = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };

/** A new time-ordered id (UUIDv7): unique across instances, sorts by creation, keeps B-tree inserts local. */
export function newId(): string {
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const random = pool.subarray(used, used + 16);
  used += 16;
  const now = Date.now();
  if (now > state.msecs) {
    state.seq =
      (((random[6] as number) & 0x7f) << 24) |
      ((random[7] as number) << 16) |
      ((random[8] as number) << 8) |
      (random[9] as number);
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ msecs: state.msecs, seq: state.seq, random });
}

/** The current time as stored: ISO-8601 UTC with milliseconds. */
export function nowIso(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}

/**
 * The smallest UUIDv7 made at or after this time: ids are time-ordered, so a date range over them is an id range
 * and keeps to the primary key's index (lowercase hex compares the same as the time it encodes).
 */
export function idAtTime(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}
