import type { AppContext } from '../../services/context.js';
import type { App } from '../app.js';
import { accessRoutes } from './access.js';
import { healthRoutes } from './health.js';
import { logRoutes } from './log.js';

/** Every route group, registered once. Each area adds its file and one line here. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  await healthRoutes(app, ctx);
  await logRoutes(app, ctx);
  await accessRoutes(app, ctx);
}
