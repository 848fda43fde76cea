import cliProgress from 'cli-progress';

/**
 * A progress bar on stderr for long runs made of stages (reading, blocking, scoring…), shown only on a terminal and
 * never with --json's stdout.
 */
export function stageProgress(enabled: boolean): {
  update: (stage: string, done: number, total: number) => void;
  stop: () => void;
} {
  if (!enabled || !process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: '{stage} [{bar}] {value}/{total}',
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let current = '';
  let started = false;
  return {
    update(stage, done, total) {
      if (!started) {
        bar.start(Math.max(1, total), done, { stage });
        started = true;
      }
      if (stage !== current) {
        current = stage;
        bar.setTotal(Math.max(1, total || done));
      }
      if (total > 0) bar.setTotal(total);
      bar.update(done, { stage: stage.padEnd(10) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
