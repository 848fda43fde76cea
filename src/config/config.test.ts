import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactUrl } from './config.js';

describe('configuration', () => {
  it('defaults to SQLite in ./data, bound to 127.0.0.1:8080', () => {
    const config = loadConfig({}, {}, '/srv/athar');
    expect(config.dataDir).toBe('/srv/athar/data');
    expect(config.database).toEqual({ kind: 'sqlite', file: '/srv/athar/data/athar.db' });
    expect(config.blobs).toEqual({ kind: 'fs', root: '/srv/athar/data/blobs' });
    expect(config.server.host).toBe('127.0.0.1');
    expect(config.server.port).toBe(8080);
    expect(config.server.trustProxy).toBe(false);
  });

  it('switches to PostgreSQL when ATHAR_DATABASE_URL is a postgres URL', () => {
    const config = loadConfig(
      { ATHAR_DATABASE_URL: 'postgres://u:p@db:5432/athar', ATHAR_DB_POOL_SIZE: '5' },
      {},
      '/x',
    );
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/athar', poolSize: 5 });
  });

  it('lets flags win over the environment', () => {
    const config = loadConfig(
      { ATHAR_PORT: '9000', ATHAR_DATA: '/env' },
      { port: '9100', data: 'flag' },
      '/cwd',
    );
    expect(config.server.port).toBe(9100);
    expect(config.dataDir).toBe(path.resolve('/cwd', 'flag'));
  });

  it('lists every problem together', () => {
    let error: unknown;
    try {
      loadConfig({
        ATHAR_PORT: 'eighty',
        ATHAR_LOG_LEVEL: 'loud',
        ATHAR_DATABASE_URL: 'mysql://x',
        ATHAR_TRUST_PROXY: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/ATHAR_PORT \(or --port\): must be a number \(got "eighty"\)/);
    expect(problems.join('\n')).toMatch(/ATHAR_LOG_LEVEL/);
    expect(problems.join('\n')).toMatch(/ATHAR_DATABASE_URL/);
    expect(problems.join('\n')).toMatch(/ATHAR_TRUST_PROXY: must be false, a hop count/);
  });

  it('trusts only the proxies named: addresses/CIDRs or a hop count; true means loopback, never every peer', () => {
    const trust = (v: string) => loadConfig({ ATHAR_TRUST_PROXY: v }).server.trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('true')).toEqual(['loopback']);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 192.168.0.0/16,::1,fd00::/8')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['*', '0.0.0.0/33', '10.0.0.1/x', 'proxy.example.org', '11', 'maybe']) {
      expect(() => trust(bad), bad).toThrow(/ATHAR_TRUST_PROXY/);
    }
  });

  it('refuses an S3 blob store for now with a reason', () => {
    expect(() => loadConfig({ ATHAR_BLOBS: 's3://bucket/prefix' })).toThrow(/not supported yet/);
  });

  it('redacts passwords from database URLs', () => {
    expect(redactUrl('postgres://athar:s3cret@db/athar')).toBe('postgres://athar:***@db/athar');
  });
});
