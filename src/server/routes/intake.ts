import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { reportInput } from '../../services/intake/report-input.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';

/** Public forms are small; 64 KB holds the longest ante-mortem profile many times over. */
export const publicBodyLimit = 64 * 1024;

export const filedReport = z.object({
  reference: z.string().describe('The case reference, e.g. ATH-7K3M-Q9XD; shown once'),
  secret: z.string().describe('The case secret; shown once, kept only as a hash'),
});

/**
 * Family intake, public: file a report (→ a case reference and secret, shown once) and look up its coarse
 * status. No route here lists or reveals anything about other reports (docs/intake.md).
 */
export async function intakeRoutes(app: App, services: Services): Promise<void> {
  const { intake } = services;

  app.post(
    '/api/public/reports',
    {
      bodyLimit: publicBodyLimit,
      config: { access: 'public' },
      schema: {
        summary:
          'File a missing-person report (families, no sign-in); answers the case reference and secret once',
        tags: ['intake'],
        body: reportInput,
        response: { 201: filedReport },
      },
    },
    async (request, reply) => {
      if (await intake.filingLimited(request.ip)) throw new Problem('rate_limited');
      // A family's address is not kept: the public filing is audited without one.
      const filed = await intake.file(request.body, 'public', { ...callerOf(request), ip: null });
      return reply.status(201).header('cache-control', 'no-store').send({
        reference: filed.reference,
        secret: filed.secret,
      });
    },
  );

  app.post(
    '/api/public/reports/status',
    {
      bodyLimit: 1024,
      config: { access: 'public' },
      schema: {
        summary:
          "A report's coarse status from its reference and secret: received, under review, or please contact a liaison",
        tags: ['intake'],
        body: z.object({
          reference: z.string().min(1).max(64),
          secret: z.string().min(1).max(128),
        }),
        response: { 200: z.object({ status: z.enum(['received', 'under_review', 'contact_liaison']) }) },
      },
    },
    async (request, reply) => {
      const answer = await intake.lookupStatus(request.body.reference, request.body.secret, request.ip);
      reply.header('cache-control', 'no-store');
      if (answer === 'rate_limited') throw new Problem('rate_limited');
      // One answer for an unknown reference and a wrong secret.
      if (answer === 'not_found')
        throw new Problem('not_found', 'no report matches this reference and secret');
      return answer;
    },
  );
}
