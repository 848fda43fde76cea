import { useEffect, useState } from 'react';

/** Polls while anything is still running, so the page shows live progress without a socket. */
export function usePoll<T>(
  load: () => Promise<T>,
  running: (data: T) => boolean,
  deps: unknown[],
  every = 1500,
) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = async () => {
      try {
        const next = await load();
        if (!live) return;
        setData(next);
        setError(null);
        if (running(next)) timer = setTimeout(step, every);
      } catch (err) {
        if (live) setError(err);
      }
    };
    void step();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...deps, tick]);
  return { data, error, reload: () => setTick((n) => n + 1) };
}
