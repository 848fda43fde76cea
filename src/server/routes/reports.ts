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
          assigned: z.enum(['me', 'none']).optional(),
          governorate: z.string().min(1).max(100).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          cursor: z.string().max(64).optional(),
        }),
      },
    },
    async (request) => {
      const { governorate, ...rest } = request.query;
      return intake.list(
        { ...rest, ...(governorate ? { governorateId: governorate } : {}) },
        callerOf(request),
      );
    },
  );

  app.get(
    '/api/reports/:id',
    {
      config: { access: 'reports:read' },
      schema: {
        summary:
          'One family report with its record, consent history, notes and ante-mortem profile; contact with contacts:read unless contact=omit (the web interface omits it and asks by POST …/contact with a reason)',
        tags: ['reports'],
        params: idParams,
        querystring: z.object({ contact: z.enum(['include', 'omit']).default('include') }),
      },
    },
    async (request) =>
      intake.view(request.params.id, callerOf(request), { contact: request.query.contact === 'include' }),
  );

  app.post(
    '/api/reports/:id/contact',
    {
      config: { access: 'contacts:read' },
      schema: {
        summary: "Open a report's sealed contact details, with a reason (audited with the reason)",
        tags: ['reports'],
        params: idParams,
        body: z.object({ reason: z.string().trim().min(3).max(2000) }),
      },
    },
    async (request, reply) => {
      const contact = await intake.revealContact(request.params.id, request.body.reason, callerOf(request));
      return reply.header('cache-control', 'no-store').send({ contact });
    },
  );

  app.post(
    '/api/reports/:id/assign',
    {
      config: { access: 'reports:write' },
      schema: {
        summary: 'Assign a report to a liaison, or to nobody (null)',
        tags: ['reports'],
        params: idParams,
        body: z.object({ userId: z.string().min(1).max(100).nullable() }),
      },
    },
    async (request) => {
      await intake.assign(request.params.id, request.body.userId, callerOf(request));
      return { id: request.params.id, assignedTo: request.body.userId };
    },
  );

  app.post(
    '/api/reports/:id/notes',
    {
      config: { access: 'reports:write' },
      schema: {
        summary: 'Add a case note to a report (kept as written; never edited)',
        tags: ['reports'],
        params: idParams,
        body: z.object({ body: z.string().trim().min(1).max(8000) }),
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ notes: await intake.addNote(request.params.id, request.body.body, callerOf(request)) }),
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
