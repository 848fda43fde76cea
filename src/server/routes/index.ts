import type { AppContext } from '../../services/context.js';
import type { App } from '../app.js';
import { accessRoutes } from './access.js';
import { assertionRoutes } from './assertions.js';
import { eventRoutes } from './events.js';
import { evidenceRoutes } from './evidence.js';
import { healthRoutes } from './health.js';
import { identificationRoutes } from './identifications.js';
import { importRoutes } from './imports.js';
import { ingestRunRoutes } from './ingest-runs.js';
import { intakeRoutes } from './intake.js';
import { logRoutes } from './log.js';
import { personRoutes } from './persons.js';
import { placeRoutes } from './places.js';
import { recordRoutes } from './records.js';
import { relationRoutes } from './relations.js';
import { reportRoutes } from './reports.js';
import { reviewRoutes } from './review.js';
import { sourceRoutes } from './sources.js';
import { statsRoutes } from './stats.js';

/** Every route group, registered once. Each area adds its file and one line here. */
export async function registerRoutes(app: App, ctx: AppContext): Promise<void> {
  await healthRoutes(app, ctx);
  await logRoutes(app, ctx);
  await evidenceRoutes(app, ctx);
  await ingestRunRoutes(app, ctx);
  await reviewRoutes(app, ctx);
  await identificationRoutes(app, ctx);
  await placeRoutes(app, ctx);
  await statsRoutes(app, ctx);
  await intakeRoutes(app, ctx);
  await reportRoutes(app, ctx);
  await accessRoutes(app, ctx);
  await sourceRoutes(app, ctx);
  await recordRoutes(app, ctx);
  await personRoutes(app, ctx);
  await eventRoutes(app, ctx);
  await relationRoutes(app, ctx);
  await assertionRoutes(app, ctx);
  await importRoutes(app, ctx);
}
