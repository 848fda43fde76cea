import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { parseTilePath, tileWidth } from '../../ledger/tiles.js';
import type { Services } from '../../services/index.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';

const immutable = 'public, max-age=31536000, immutable';
// A partial tile's bytes never change either, but the log may stop serving it once the full tile exists.
const partial = 'public, max-age=60';

/**
 * The log, read-only, as c2sp.org/tlog-tiles: the latest signed checkpoint, hash tiles and entry bundles. Any
 * tlog client verifies athar's log from these alone (docs/ledger.md).
 */
export async function logRoutes(app: App, services: Services): Promise<void> {
  const { log } = services;

  app.get(
    '/log/checkpoint',
    {
      config: { access: 'public' },
      schema: {
        summary: 'The latest signed checkpoint (c2sp.org/tlog-checkpoint, a c2sp.org/signed-note)',
        tags: ['log'],
      },
    },
    async (_request, reply) => {
      const latest = await log.latestCheckpoint();
      if (!latest) throw new Problem('not_found', 'the log has no checkpoint yet');
      return reply.header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send(latest.note);
    },
  );

  app.get(
    '/log/tile/*',
    {
      config: { access: 'public' },
      schema: {
        summary: 'A hash tile (tile/<L>/<N>[.p/<W>]) or an entry bundle (tile/entries/<N>[.p/<W>])',
        tags: ['log'],
        params: z.object({ '*': z.string() }),
      },
    },
    async (request, reply) => {
      const path = `tile/${request.params['*']}`;
      const wanted = parseTilePath(path);
      if (!wanted) throw new Problem('not_found', `${path} is not a tile path (tile/<L>/<N>[.p/<W>])`);
      const bytes =
        wanted.kind === 'hashes'
          ? await log.tile(wanted.level, wanted.index, wanted.width)
          : await log.bundle(wanted.index, wanted.width);
      if (!bytes) throw new Problem('not_found', `the log has not grown to ${path}`);
      reply
        .header('cache-control', wanted.width === tileWidth ? immutable : partial)
        .type('application/octet-stream');
      if (wanted.kind === 'entries' && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding');
        return reply.send(gzipSync(bytes));
      }
      return reply.send(bytes);
    },
  );
}
