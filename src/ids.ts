import { v7 } from 'uuid';

/** A new time-ordered id (UUIDv7): unique across instances, sorts by creation, keeps B-tree inserts local. */
export function newId(): string {
  return v7();
}

/** The current time as stored: ISO-8601 UTC with milliseconds. */
export function nowIso(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}
