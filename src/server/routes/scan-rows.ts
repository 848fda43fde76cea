import { z } from 'zod';
import { can } from '../../access/caller.js';
import type { Services } from '../../services/index.js';
import type { PageRead, ScannedRow } from '../../store/repositories/ocr-rows.js';
import { callerOf } from '../access.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { signedIn } from './evidence.js';

const tags = ['evidence'];
const idParams = z.object({ id: z.string().min(1).max(100) });
const text = z.string().trim().max(300);
const rowFields = z
  .object({
    fullName: text,
    firstName: text,
    fatherName: text,
    grandfatherName: text,
    familyName: text,
    rowNumber: text,
    detaineeNumber: text,
    date: text,
  })
  .partial()
  .strict();

function presentRead(r: PageRead) {
  return {
    engine: r.engine,
    outcome: r.outcome,
    reason: r.reason,
    rows: r.rows,
    pageWidth: r.pageWidth,
    pageHeight: r.pageHeight,
    pages: r.pages,
    pageSizes: r.pageSizes,
    dateColumn: r.dateColumn,
    seconds: r.seconds,
    readAt: r.readAt,
    readBy: r.readBy,
  };
}

/** A proposed row as the API shows it: what the machine read, its box on the page, and its decision if any. */
function presentRow(r: ScannedRow) {
  return {
    id: r.id,
    evidenceId: r.evidenceId,
    page: r.page,
    index: r.index,
    box: r.box,
    text: r.text,
    fields: r.fields,
    fieldConfidence: r.fieldConfidence,
    confidence: r.confidence,
    engine: r.engine,
    createdAt: r.createdAt,
    status: r.status,
    correctedFields: r.correctedFields,
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt,
    recordId: r.recordId,
    sourceId: r.sourceId,
  };
}

/**
 * Scanned registries (docs/ocr.md): read an item as a page, list its proposed rows, show the page beside them, and
 * a documenter's decisions, which make records.
 */
export async function scanRowRoutes(app: App, services: Services): Promise<void> {
  const { evidence, scans } = services;

  app.post(
    '/api/evidence/:id/rows/read',
    {
      config: { access: 'evidence:annotate' },
      schema: {
        summary:
          'Read an item as a scanned registry page into proposed rows (tesseract; once per reader and engine version)',
        tags,
        params: idParams,
      },
    },
    async (request) => {
      await evidence.require(request.params.id);
      return scans.read([request.params.id], signedIn(request));
    },
  );

  app.get(
    '/api/evidence/:id/rows',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary:
          "A scanned page's reads and proposed rows (name parts, numbers, a date, the box), with the source its records go to",
        tags,
        params: idParams,
      },
    },
    async (request) => {
      await evidence.require(request.params.id);
      const listed = await scans.rows(request.params.id, callerOf(request));
      return {
        evidenceId: listed.item.id,
        originalName: listed.item.originalName,
        sourceName: listed.sourceName,
        engine: scans.engineVersion(),
        reads: listed.reads.map(presentRead),
        items: listed.rows.map(presentRow),
      };
    },
  );

  app.get(
    '/api/evidence/:id/page',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary:
          'A page (?page=N, from 1) of an item read as a scanned page (grey JPEG, ≤ 1600 px; a scan is not graphic): audited',
        tags,
        params: idParams,
        querystring: z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) }),
      },
    },
    async (request, reply) => {
      await evidence.require(request.params.id);
      const view = await scans.pageView(request.params.id, callerOf(request), request.query.page);
      reply.type(view.mediaType).header('cache-control', 'private, max-age=300');
      if (view.size !== undefined) reply.header('content-length', view.size);
      return reply.send(view.stream);
    },
  );

  app.post(
    '/api/evidence/:id/rows/decisions',
    {
      config: { access: 'records:write' },
      schema: {
        summary:
          "Accept, correct or reject a scanned page's rows: accepted and corrected ones become records (registry_line) of the document's source",
        tags,
        params: idParams,
        body: z.object({
          sourceName: z.string().trim().min(1).max(200).optional(),
          decisions: z
            .array(
              z.object({
                row: z.string().min(1).max(100),
                action: z.enum(['accept', 'correct', 'reject']),
                fields: rowFields.optional(),
                dateColumn: z.enum(['arrest_date', 'death_date', 'birth_date']).optional(),
              }),
            )
            .min(1)
            .max(200),
        }),
      },
    },
    async (request) => {
      // It makes records (records:write, the route's rule) from what was read on evidence: a documenter's work,
      // so annotating evidence is needed too (a liaison, who may write records, may not decide scanned rows).
      if (!can(callerOf(request), 'evidence:annotate'))
        throw new Problem(
          'forbidden',
          'deciding scanned rows needs evidence:annotate as well as records:write',
        );
      await evidence.require(request.params.id);
      const done = await scans.decide(request.params.id, {
        caller: signedIn(request),
        ...(request.body.sourceName ? { sourceName: request.body.sourceName } : {}),
        decisions: request.body.decisions.map((d) => ({
          row: d.row,
          action: d.action,
          ...(d.fields ? { fields: d.fields } : {}),
          ...(d.dateColumn ? { dateColumn: d.dateColumn } : {}),
        })),
      });
      return { items: done.rows.map(presentRow), sourceId: done.sourceId, errors: done.errors };
    },
  );
}
