import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type Dialect, dialects, type TestDatabase } from '../../test/stores.js';
import { loadConfig } from '../config/config.js';
import { type AppContext, openContext } from '../services/context.js';
import { type App, buildServer } from './app.js';

describe.each(dialects)('the HTTP server [%s]', (dialect: Dialect) => {
  let database: TestDatabase;
  let ctx: AppContext;
  let app: App;
  let webRoot: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-server-'));
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-web-'));
    fs.writeFileSync(
      path.join(webRoot, 'index.html'),
      '<!doctype html><html lang="ar" dir="rtl"><title>athar</title></html>',
    );
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
    const config = loadConfig({ ATHAR_DATA: dataDir, ATHAR_WEB_ROOT: webRoot });
    ctx = await openContext({ ...config, database: database.config });
    app = await buildServer(ctx, { logger: false });
  });

  afterAll(async () => {
    await app.close();
    await ctx.close();
    await database.drop();
  });

  it('answers /healthz with the dialect', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: dialect });
  });

  it('publishes an OpenAPI 3.1 document that describes /healthz', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/healthz'].get.summary).toMatch(/Liveness/);
  });

  it('answers unknown API paths with problem+json', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing-here?name=secret' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json()).toMatchObject({ type: 'urn:athar:problem:not_found', status: 404, code: 'not_found' });
  });

  it('sends security headers, on answers and on problems alike', async () => {
    for (const url of ['/healthz', '/api/nothing-here', '/api/persons/x']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
      expect(res.headers['content-security-policy'], url).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
  });

  it('serves the web app for client routes and caches hashed assets for good', async () => {
    const page = await app.inject({ method: 'GET', url: '/search', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('dir="rtl"');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
  });
});
