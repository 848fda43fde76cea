import { z } from 'zod';
import type { Services } from '../../services/index.js';
import type { App } from '../app.js';
import { signedIn } from './evidence.js';

const tags = ['backups'];

/**
 * Backups from the browser (admins, `backups:manage`): the server's backup folder and its snapshots, a backup now
 * (with or without the keys), a check of a snapshot; restoring is `athar restore` into an empty place
 * (docs/exchange.md). Every start and end is audited.
 */
export async function backupRoutes(app: App, services: Services): Promise<void> {
  const { backups } = services;
  app.addHook('onClose', async () => backups.settle());

  app.get(
    '/api/backups',
    {
      config: { access: 'backups:manage' },
      schema: {
        summary:
          'The backup folder, its snapshots (newest first; incomplete ones are those a killed backup left) and the last backup and check jobs',
        tags,
      },
    },
    async () => backups.view(),
  );

  app.post(
    '/api/backups',
    {
      config: { access: 'backups:manage' },
      schema: {
        summary:
          'Back up now into the backup folder, in the background (202 with the job): database, new blobs, and the keys when keys is true',
        tags,
        body: z.object({ keys: z.boolean() }),
      },
    },
    async (request, reply) =>
      reply.status(202).send(await backups.startBackup(signedIn(request), request.body.keys)),
  );

  app.post(
    '/api/backups/:snapshot/check',
    {
      config: { access: 'backups:manage' },
      schema: {
        summary:
          'Check a snapshot in the background (202 with the job): its database copy and keys are there and every blob it needs re-hashes to its name',
        tags,
        params: z.object({ snapshot: z.string().regex(/^[0-9A-Za-z-]{1,40}$/) }),
      },
    },
    async (request, reply) =>
      reply.status(202).send(await backups.startCheck(signedIn(request), request.params.snapshot)),
  );
}
