#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's loader: no build step for the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
// `serve` keeps the process alive through its open server; everything else ends here.
if (code !== 0) process.exit(code);
