#!/usr/bin/env node
// Builds web/dist when it is missing or older than the web sources, so `npm start` never serves a stale app.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'web');
const built = path.join(web, 'dist', 'index.html');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

const force = process.argv.includes('--force');
if (!force && fs.existsSync(built) && fs.statSync(built).mtimeMs >= newest(web)) {
  process.stderr.write('web interface is up to date\n');
} else {
  process.stderr.write('building the web interface…\n');
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      path.join(web, 'vite.config.ts'),
      '--logLevel',
      'warn',
    ],
    {
      stdio: 'inherit',
      cwd: root,
    },
  );
}
