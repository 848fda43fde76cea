/**
 * `athar serve --workers 2`: two processes serve one port; what one of them grants or ends holds in the other.
 * Every request goes over a new connection, which node:cluster hands to the processes in turn.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/access/passwords.js';
import { newSecret, secretDigest } from '../src/access/secrets.js';
import { CredentialRepository } from '../src/store/repositories/credentials.js';
import { UserRepository } from '../src/store/repositories/users.js';
import { openStore } from '../src/store/store.js';
import { runAthar } from './cli.js';
import { syntheticPhoto } from './evidence-files.js';
import { freePort } from './free-port.js';

const bin = path.resolve(import.meta.dirname, '..', 'bin', 'athar.js');

/** One request on a connection of its own (no keep-alive agent). */
function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: Buffer; type: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            type: String(res.headers['content-type']),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('athar serve --workers 2', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-workers-'));
  const data = path.join(dir, 'data');
  let port = 0;
  let server: ChildProcess;
  let stderr = '';
  let cookie = '';
  let csrf = '';
  let userId = '';

  beforeAll(async () => {
    expect((await runAthar(['init', '--data', data])).code).toBe(0);
    const photo = path.join(dir, 'synthetic-photo.jpg');
    fs.writeFileSync(photo, await syntheticPhoto(7));
    const ingest = await runAthar(['ingest', photo, '--data', data, '--source', 'synthetic test']);
    expect(ingest.code, ingest.stderr).toBe(0);
    // An investigator's session, made in the database as a sign-in would make it.
    const store = await openStore({ kind: 'sqlite', file: path.join(data, 'athar.db') });
    const user = await new UserRepository(store.db).create({
      username: 'investigator-workers',
      passwordHash: await hashPassword('synthetic-test-password'),
      role: 'investigator',
    });
    userId = user.id;
    const token = newSecret();
    csrf = newSecret(18);
    await new CredentialRepository(store.db).createSession({
      id: secretDigest(token),
      userId: user.id,
      csrfToken: csrf,
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    await store.close();
    cookie = `athar_session=${token}`;

    port = await freePort();
    server = spawn(
      process.execPath,
      [bin, 'serve', '--data', data, '--port', String(port), '--workers', '2'],
      {
        env: { ...process.env, ATHAR_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 60_000);
      server.stderr?.on('data', () => {
        if (/with 2 processes/.test(stderr)) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
  }, 120_000);

  afterAll(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('honours a reveal grant in every process, and a sign-out at once in every process', async () => {
    const signedIn = { cookie, 'x-csrf-token': csrf };
    const list = await request(port, 'GET', '/api/evidence', signedIn);
    expect(list.status).toBe(200);
    const id = JSON.parse(list.body.toString()).items[0].id as string;
    const reveal = await request(port, 'POST', `/api/evidence/${id}/reveal`, signedIn, {
      reason: 'synthetic test: comparing with a report',
    });
    expect(reveal.status, reveal.body.toString()).toBe(200);
    const { url } = JSON.parse(reveal.body.toString()) as { url: string };
    // Four new connections: both processes answer, and both accept the grant the one process issued.
    for (let i = 0; i < 4; i++) {
      const view = await request(port, 'GET', url, signedIn);
      expect(view.status, view.body.toString()).toBe(200);
      expect(view.type).toMatch(/^image\//);
    }
    // Searches are audited before they are answered, in whichever process serves them (on SQLite the primary
    // commits every process's audit rows).
    for (let i = 0; i < 4; i++) {
      expect((await request(port, 'GET', '/api/records?limit=5', signedIn)).status).toBe(200);
    }
    const store = await openStore({ kind: 'sqlite', file: path.join(data, 'athar.db') }, { migrate: false });
    const searches = await store.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'search')
      .where('actor_id', '=', userId)
      .execute();
    await store.close();
    expect(searches).toHaveLength(4);
    // Both processes have now looked the session up (and remember it); signing out in one ends it in both.
    const out = await request(port, 'DELETE', '/api/session', signedIn);
    expect(out.status).toBe(204);
    for (let i = 0; i < 4; i++) {
      expect((await request(port, 'GET', '/api/evidence', signedIn)).status).toBe(401);
    }
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(request(port, 'GET', '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});
