import { z } from 'zod';
import { allows } from '../../access/policies.js';
import { consentPurposes, currentConsent } from '../../domain/consent.js';
import type { AppContext } from '../../services/context.js';
import { ContactKeyError } from '../../services/intake/contact-cipher.js';
import { contactKeysProvider } from '../../services/intake/contacts-key.js';
import { IntakeService } from '../../services/intake/intake.js';
import { reportInput } from '../../services/intake/report-input.js';
import { reportStatuses } from '../../store/repositories/reports.js';
import { audit } from '../access.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { contactKeyProblem, filedReport } from './intake.js';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Family reports for staff (liaisons): list, read (contact details only with contacts:read, each such read
 * audited), file on a family's behalf, change status, record consent grants and withdrawals.
 */
export async function reportRoutes(app: App, ctx: AppContext): Promise<void> {
  const intake = new IntakeService({
    store: ctx.store,
    clock: ctx.clock,
    contactKeys: contactKeysProvider(ctx.config),
  });

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
    async (request) => {
      const page = await intake.list(request.query);
      await audit(ctx, request, {
        action: 'list_reports',
        subjectType: 'report',
        details: { status: request.query.status ?? null, count: page.items.length },
      });
      return page;
    },
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
    async (request) => {
      const actor = request.actor;
      const withContact = actor !== null && allows('contacts:read', actor.role, actor.scopes);
      let view: Awaited<ReturnType<IntakeService['view']>>;
      try {
        view = await intake.view(request.params.id, { withContact });
      } catch (error) {
        if (error instanceof ContactKeyError) request.log.error({ err: error }, 'contacts key unavailable');
        throw contactKeyProblem(error);
      }
      if (!view) throw new Problem('not_found', `no report ${request.params.id}`);
      await audit(ctx, request, { action: 'read_report', subjectType: 'report', subjectId: view.id });
      if (withContact) {
        await audit(ctx, request, {
          action: 'read_contact',
          subjectType: 'report',
          subjectId: view.id,
          details: { present: view.contact !== null },
        });
      }
      return view;
    },
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
    async (request) => {
      const found = await intake.antemortem(request.params.id, request.actor?.role ?? '');
      if (!found) throw new Problem('not_found', `no report ${request.params.id}`);
      await audit(ctx, request, {
        action: 'read_antemortem',
        subjectType: 'report',
        subjectId: found.reportId,
      });
      return found;
    },
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
      try {
        const filed = await intake.file(request.body, {
          channel: 'liaison',
          userId: request.actor?.userId ?? null,
          role: request.actor?.role ?? null,
          ip: request.ip,
        });
        return reply
          .status(201)
          .header('cache-control', 'no-store')
          .send({ id: filed.id, reference: filed.reference, secret: filed.secret });
      } catch (error) {
        if (error instanceof ContactKeyError) request.log.error({ err: error }, 'contacts key unavailable');
        throw contactKeyProblem(error);
      }
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
      if (!(await intake.setStatus(id, request.body.status, request.actor?.userId ?? ''))) {
        throw new Problem('not_found', `no report ${id}`);
      }
      await audit(ctx, request, {
        action: 'report_status',
        subjectType: 'report',
        subjectId: id,
        details: { status: request.body.status },
      });
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
      const history = await intake.recordConsent(id, purpose, granted, request.actor?.userId ?? '');
      if (!history) throw new Problem('not_found', `no report ${id}`);
      await audit(ctx, request, {
        action: 'report_consent',
        subjectType: 'report',
        subjectId: id,
        details: { purpose, granted },
      });
      return { id, consent: currentConsent(history), history };
    },
  );
}
