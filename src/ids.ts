import { v7 } from 'uuid';

/** A new time-ordered id (UUIDv7): unique across instances, sorts by creation, keeps B-tree inserts local. */
export function newId(): string {
  return v7();
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
