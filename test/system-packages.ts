import { execFileSync, spawnSync } from 'node:child_process';

/** The Debian packages the tests run real engines from, by the command each provides. */
export const systemPackages: readonly { command: string; packages: readonly string[]; for: string }[] = [
  { command: 'chromium', packages: ['chromium'], for: 'the browser tests' },
  { command: 'Rscript', packages: ['r-base-core'], for: "the estimation test against R's glm" },
];

const present = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/**
 * Makes sure the engines the tests use are installed: as root on Debian, missing packages are installed with apt
 * (what .ci/run does); otherwise the run stops at once with one line naming what to install.
 */
export function ensureSystemPackages(): void {
  const missing = systemPackages.filter((p) => !present(p.command));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.flatMap((p) => p.packages))];
  const isRoot = process.getuid?.() === 0;
  if (isRoot && present('apt-get')) {
    process.stderr.write(
      `tests: installing ${packages.join(', ')} with apt-get (needed by ${missing.map((p) => p.for).join(', ')})\n`,
    );
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
    const still = missing.filter((p) => !present(p.command));
    if (still.length === 0) return;
  }
  // One line, then stop: a missing browser would otherwise fail every browser test with its own wall of errors.
  process.stderr.write(
    `tests: ${missing.map((p) => `${p.command} (for ${p.for})`).join(', ')} is missing; install it with: sudo apt-get install ${packages.join(' ')}\n`,
  );
  process.exit(1);
}
