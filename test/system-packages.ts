import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * The Debian packages the tests run real engines from, by the command each provides (or, for data and fonts, a
 * file it installs; a glob's first match counts).
 */
export const systemPackages: readonly { command: string; packages: readonly string[]; for: string }[] = [
  { command: 'chromium', packages: ['chromium'], for: 'the browser tests' },
  { command: 'Rscript', packages: ['r-base-core'], for: "the estimation test against R's glm" },
  { command: 'tesseract', packages: ['tesseract-ocr'], for: 'the OCR tests' },
  { command: 'pdftoppm', packages: ['poppler-utils'], for: 'the scanned PDF tests' },
  {
    command: 'file:/usr/share/tesseract-ocr/*/tessdata/ara.traineddata',
    packages: ['tesseract-ocr-ara'],
    for: "tesseract's Arabic",
  },
  {
    command: 'file:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    packages: ['fonts-dejavu-core'],
    for: 'the synthetic OCR sets',
  },
  {
    command: 'file:/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf',
    packages: ['fonts-noto-core'],
    for: 'the synthetic OCR sets',
  },
];

const present = (command: string) => {
  if (command.startsWith('file:')) {
    const pattern = command.slice('file:'.length);
    if (!pattern.includes('*')) return fs.existsSync(pattern);
    return spawnSync('sh', ['-c', `ls ${pattern}`], { stdio: 'ignore' }).status === 0;
  }
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
};

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
    `tests: ${missing.map((p) => `${p.command.replace(/^file:/, '')} (for ${p.for})`).join(', ')} is missing; install it with: sudo apt-get install ${packages.join(' ')}\n`,
  );
  process.exit(1);
}
