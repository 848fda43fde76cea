/**
 * A turn of the event loop: I/O callbacks and timers waiting run before the caller goes on. On SQLite every query
 * resolves at once, so a long run of awaits would otherwise hold the thread (the server's requests, a write in
 * flight on another chain of promises).
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
