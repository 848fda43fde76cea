import type { AppContext } from '../../services/context.js';
import type { App } from '../app.js';
import { assertionRoutes } from './assertions.js';
import { eventRoutes } from './events.js';
import { healthRoutes } from './health.js';
import { importRoutes } from './imports.js';
import { logRoutes } from './log.js';
import { personRoutes } from './persons.js';
import { recordRoutes } from './records.js';
import { relationRoutes } from './relations.js';
import { sourceRoutes } from './sources.js';

/** Every route group, registered once. Each area adds its file and one line here. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  await healthRoutes(app, ctx);
  await logRoutes(app, ctx);
  await sourceRoutes(app, ctx);
  await recordRoutes(app, ctx);
  await personRoutes(app, ctx);
  await eventRoutes(app, ctx);
  await relationRoutes(app, ctx);
  await assertionRoutes(app, ctx);
  await importRoutes(app, ctx);
}
