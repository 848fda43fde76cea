import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.js';
import { runAthar } from './cli.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'athar-cli-'));

describe('the athar command', () => {
  it('offers --help on every command', async () => {
    const program = buildProgram();
    const paths: string[][] = [];
    const walk = (cmd: typeof program, prefix: string[]) => {
      for (const sub of cmd.commands) {
        paths.push([...prefix, sub.name()]);
        walk(sub, [...prefix, sub.name()]);
      }
    };
    walk(program, []);
    expect(paths.length).toBeGreaterThanOrEqual(2);
    for (const p of paths) {
      expect(findCommand(program, p)?.helpInformation(), p.join(' ')).toMatch(/Usage: athar/);
    }
    const run = await runAthar(['serve', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--port/);
  });

  it('exits 2 on an unknown command or option', async () => {
    expect((await runAthar(['no-such-command'])).code).toBe(2);
    expect((await runAthar(['init', '--no-such-flag'])).code).toBe(2);
  });

  it('initialises a data folder once, printing the admin password once', async () => {
    const dir = tmp();
    const first = await runAthar(['init', '--data', path.join(dir, 'data'), '--json']);
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result.created).toBe(true);
    expect(result.admin.username).toBe('admin');
    expect(result.admin.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(fs.existsSync(path.join(dir, 'data', 'athar.db'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'data', 'blobs', 'sha256'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'data', 'keys'))).toBe(true);
    const second = await runAthar(['init', '--data', path.join(dir, 'data'), '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).not.toHaveProperty('admin');
  });

  it('exits 2 with every configuration problem listed', async () => {
    const run = await runAthar(['init'], {
      env: { ATHAR_PORT: 'x', ATHAR_LOG_LEVEL: 'loud', ATHAR_DATA: tmp() },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ATHAR_PORT/);
    expect(run.stderr).toMatch(/ATHAR_LOG_LEVEL/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 with one line on a database file that is not SQLite', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'athar.db'), 'garbage, not a database');
    const run = await runAthar(['init', '--data', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(path.join(dir, 'athar.db'));
  });

  it('exits 2 with one line when the data folder cannot be made', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'file'), '');
    const run = await runAthar(['init', '--data', path.join(dir, 'file', 'data')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/data folder .* cannot be created: (ENOTDIR|EEXIST)/);
  });

  it('exits 2 with one line when PostgreSQL cannot be reached', async () => {
    const run = await runAthar([
      'init',
      '--data',
      tmp(),
      '--database-url',
      'postgres://athar:pw@127.0.0.1:1/athar',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot reach PostgreSQL at postgres:\/\/athar:\*\*\*@127\.0\.0\.1:1\/athar/);
    expect(run.stderr).not.toContain(':pw@');
  });

  it('exits 2 with one line when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = await runAthar(['serve', '--data', tmp(), '--port', String(port)]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`));
    } finally {
      blocker.close();
    }
  });
});

function findCommand(program: ReturnType<typeof buildProgram>, names: string[]) {
  let cmd: ReturnType<typeof buildProgram> | undefined = program;
  for (const n of names) cmd = cmd?.commands.find((c) => c.name() === n);
  return cmd;
}
