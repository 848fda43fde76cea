import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { type App, buildServer } from '../../src/server/app.js';
import type { AppContext } from '../../src/services/context.js';
import { servicesOf } from '../../src/services/index.js';
import { initialise } from '../../src/services/setup.js';

export interface RunningServer {
  url: string;
  ctx: AppContext;
  app: App;
  admin?: { username: string; password: string };
  stop(): Promise<void>;
}

/**
 * A real athar server on a free port, over a fresh data folder and the built web app. With `tracing`, the tracing
 * loop runs beside it as `athar serve` runs it (records linked and matched as they arrive).
 */
export async function startServer(
  env: NodeJS.ProcessEnv = {},
  options: { tracing?: boolean } = {},
): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-'));
  const config = loadConfig({ ATHAR_DATA: dataDir, ATHAR_PORT: '0', ...env });
  const { ctx, result } = await initialise(config);
  const app = await buildServer(ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const tracer = options.tracing ? servicesOf(ctx).tracing.tracer : null;
  tracer?.start((error) => console.error('tracing loop', error));
  return {
    url: `http://127.0.0.1:${port}`,
    ctx,
    app,
    ...(result.admin ? { admin: result.admin } : {}),
    async stop() {
      await tracer?.stop();
      await app.close();
      await ctx.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
