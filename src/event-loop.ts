/**
 * A turn of the event loop: I/O callbacks and timers waiting run before the caller goes on. On SQLite every query
 * resolves at once, so a long run of awaits would otherwise hold the thread (the server's requests, a write in
 * flight on another chain of promises).
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * For a loop of steps that together take long: a function to await after each step, which gives a turn of the event
 * loop once more than `ms` of wall time have passed since the last turn it gave (or since it was made).
 */
export function turnsEvery(ms: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since <= ms) return;
    await nextTurn();
    since = performance.now();
  };
}
