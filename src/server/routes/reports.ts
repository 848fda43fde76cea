import { z } from 'zod';
import { consentPurposes, currentConsent } from '../../domain/consent.js';
import { reportStatuses } from '../../domain/reports.js';
import type { Services } from '../../services/index.js';
import { reportInput } from '../../services/intake/report-input.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { filedReport } from './intake.js';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Family reports for staff (liaisons): list, read (contact details only with contacts:read, each such read
 * audited), file on a family's behalf, change status, record consent grants and withdrawals.
 */
export async function reportRoutes(app: App, services: Services): Promise<void> {
  const { intake } = services;

  app.get(
    '/api/reports',
    {
      config: { access: 'reports:read' },
      schema: {
        summary: 'List family reports, newest first, with their consent (never contact details)',
        tags: ['reports'],
        querystring: z.object({
          status: z.enum(reportStatuses).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          cursor: z.string().max(64).optional(),
        }),
      },
    },
    async (request) => intake.list(request.query, callerOf(request)),
  );

  app.get(
    '/api/reports/:id',
    {
      config: { access: 'reports:read' },
      schema: {
        summary:
          'One family report with its record, consent history and ante-mortem profile; contact with contacts:read',
        tags: ['reports'],
        params: idParams,
      },
    },
    async (request) => intake.view(request.params.id, callerOf(request)),
  );

  app.get(
    '/api/reports/:id/antemortem',
    {
      config: { access: 'forensic:read' },
      schema: {
        summary:
          "A report's ante-mortem profile for forensic comparison (withheld where consent to internal use is not given)",
        tags: ['reports'],
        params: idParams,
      },
    },
    async (request) => intake.antemortem(request.params.id, callerOf(request)),
  );

  app.post(
    '/api/reports',
    {
      bodyLimit: 64 * 1024,
      config: { access: 'reports:write' },
      schema: {
        summary:
          "File a report on a family's behalf (channel liaison); answers its id, reference and secret once",
        tags: ['reports'],
        body: reportInput,
        response: { 201: filedReport.extend({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const filed = await intake.file(request.body, 'liaison', callerOf(request));
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send({ id: filed.id, reference: filed.reference, secret: filed.secret });
    },
  );

  app.post(
    '/api/reports/:id/status',
    {
      config: { access: 'reports:write' },
      schema: {
        summary:
          "Change a report's status (the family sees only received / under review / contact a liaison)",
        tags: ['reports'],
        params: idParams,
        body: z.object({ status: z.enum(reportStatuses) }),
      },
    },
    async (request) => {
      const { id } = request.params;
      await intake.setStatus(id, request.body.status, callerOf(request));
      return { id, status: request.body.status };
    },
  );

  app.post(
    '/api/reports/:id/consent',
    {
      config: { access: 'reports:write' },
      schema: {
        summary: 'Grant or withdraw consent for one purpose; kept as a new entry in the history',
        tags: ['reports'],
        params: idParams,
        body: z.object({ purpose: z.enum(consentPurposes), granted: z.boolean() }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { purpose, granted } = request.body;
      const history = await intake.recordConsent(id, purpose, granted, callerOf(request));
      return { id, consent: currentConsent(history), history };
    },
  );
}
