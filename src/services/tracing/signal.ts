import { EventEmitter } from 'node:events';
import type { Store } from '../../store/store.js';

const signals = new WeakMap<Store, EventEmitter>();

/** The emitter the tracing loop of this process listens on for this store. */
export function tracingSignal(store: Store): EventEmitter {
  let emitter = signals.get(store);
  if (!emitter) {
    emitter = new EventEmitter();
    signals.set(store, emitter);
  }
  return emitter;
}

/**
 * Wakes this process's tracing loop: records or labels were just queued and committed. The loop also polls the
 * queue, so records stored by another process (a CLI import, another server process) are taken too.
 */
export function tracingQueued(store: Store): void {
  signals.get(store)?.emit('queued');
}
