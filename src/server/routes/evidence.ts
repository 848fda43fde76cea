import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type SignedIn, visibilityOf } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { annotationKinds, readFromPlaces } from '../../domain/evidence.js';
import { idAtTime } from '../../ids.js';
import { bodyLabelParts } from '../../services/evidence/body-labels.js';
import type { ViewStream } from '../../services/evidence/evidence.js';
import type { Services } from '../../services/index.js';
import { actorOf, callerOf } from '../access.js';
import type { App } from '../app.js';
import {
  presentAnnotation,
  presentBodyLabels,
  presentEvidence,
  presentEvidenceRow,
} from '../presenters/evidence.js';
import { Problem } from '../problems.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day YYYY-MM-DD');
/** Where a reason travels (docs/access.md "Nothing personal in URLs"): a header, percent-encoded. */
export const reasonHeader = 'x-athar-reason';

function reasonFrom(header: unknown): string {
  let reason = '';
  try {
    reason = typeof header === 'string' ? decodeURIComponent(header).trim() : '';
  } catch {
    throw new Problem('bad_request', `${reasonHeader}: not percent-encoded UTF-8`);
  }
  if (reason.length < 3 || reason.length > 2000) {
    throw new Problem(
      'bad_request',
      `say why in the ${reasonHeader} header (3–2000 characters, percent-encoded)`,
    );
  }
  return reason;
}

const tags = ['evidence'];

/** The signed-in caller, as services record them (the route's access rule has already required one). */
export function signedIn(request: FastifyRequest): SignedIn {
  return { actor: actorOf(request), ip: request.ip, channel: 'http' };
}

function sendView(reply: FastifyReply, view: ViewStream, cache: string) {
  reply.type(view.mediaType).header('cache-control', cache);
  if (view.size !== undefined) reply.header('content-length', view.size);
  return reply.send(view.stream);
}

/** A content-disposition value that survives any file name (ASCII fallback plus RFC 5987 UTF-8). */
export function attachment(name: string | null, fallback: string): string {
  const given = name?.split(/[\\/]/).pop()?.trim() || fallback;
  const ascii = given.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(given)}`;
}

/**
 * Evidence: lists and pages, blurred thumbnails for everyone who may read evidence, and — with permission and a
 * reason, each a custody event — the unblurred view and the original bytes. Annotations and body labels.
 */
export async function evidenceRoutes(app: App, services: Services): Promise<void> {
  const { evidence, catalogue, bodyLabels } = services;

  app.get(
    '/api/evidence',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary:
          'List evidence items, newest first, by source, ingest run, decode status, annotation, near-duplicate group or day stored (keyset paging)',
        tags,
        querystring: z.object({
          source: z.string().min(1).optional(),
          ingestRun: z.string().min(1).optional(),
          decodeStatus: z.enum(['decoded', 'undecodable', 'pixel_limit', 'not_image']).optional(),
          hasAnnotations: z.enum(['true', 'false']).optional(),
          nearDuplicates: z.enum(['true', 'false']).optional(),
          group: z.string().min(1).max(100).optional(),
          from: day.optional(),
          to: day.optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          cursor: z.string().min(1).max(100).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = await evidence.list({
        sourceId: q.source,
        ingestRunId: q.ingestRun,
        decodeStatus: q.decodeStatus,
        hasAnnotations: q.hasAnnotations === undefined ? undefined : q.hasAnnotations === 'true',
        nearDuplicates: q.nearDuplicates === undefined ? undefined : q.nearDuplicates === 'true',
        groupId: q.group,
        fromId: q.from ? idAtTime(Date.parse(`${q.from}T00:00:00Z`)) : undefined,
        // The whole of the last day: up to the start of the next one.
        untilId: q.to ? idAtTime(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000) : undefined,
        beforeId: q.cursor,
        limit: q.limit,
      });
      return {
        items: page.items.map(presentEvidenceRow),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },
  );

  app.get(
    '/api/evidence/:id',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary:
          'One evidence item: metadata, annotations, body labels, custody, log status, near-duplicates',
        tags,
        params: idParams,
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return presentEvidence(await evidence.view(request.params.id, caller), visibilityOf(caller));
    },
  );

  app.get(
    '/api/evidence/:id/thumbnail',
    {
      config: { access: 'evidence:read' },
      schema: {
        summary: 'The thumbnail: blurred when the item is graphic (not a custody event)',
        tags,
        params: idParams,
      },
    },
    async (request, reply) =>
      sendView(reply, await evidence.thumbnail(request.params.id), 'private, max-age=300'),
  );

  app.post(
    '/api/evidence/:id/reveal',
    {
      config: { access: 'evidence:reveal' },
      schema: {
        summary: 'Reveal the unblurred view, with a reason: a custody event; answers a short-lived URL',
        tags,
        params: idParams,
        body: z.object({ reason: z.string().trim().min(3).max(2000) }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const revealed = await evidence.reveal(id, signedIn(request), request.body.reason);
      return {
        url: `/api/evidence/${encodeURIComponent(id)}/unblurred?grant=${encodeURIComponent(revealed.grant)}`,
        expiresAt: revealed.expiresAt,
        custodyEventId: revealed.custodyEventId,
      };
    },
  );

  app.get(
    '/api/evidence/:id/unblurred',
    {
      config: { access: 'evidence:reveal' },
      schema: {
        summary: 'The unblurred view, with the grant a reveal gave this user for this item',
        tags,
        params: idParams,
        querystring: z.object({ grant: z.string().min(1).max(200) }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const check = evidence.checkGrant(request.query.grant, id, signedIn(request));
      if (check === 'malformed') throw new Problem('bad_request', 'grant: not a grant this server issued');
      if (check === 'not_yours')
        throw new Problem('grant_invalid', 'this grant was issued to another user or for another item');
      if (check === 'expired')
        throw new Problem('grant_invalid', 'this grant has expired; reveal the view again');
      return sendView(reply, await evidence.revealedView(id), 'private, no-store');
    },
  );

  app.get(
    '/api/evidence/:id/original',
    {
      config: { access: 'evidence:original' },
      schema: {
        summary: 'Download the original bytes, with a reason: a custody event',
        description:
          'The reason travels in the X-Athar-Reason header (percent-encoded UTF-8, 3–2000 characters), never in the URL: proxy logs keep URLs.',
        tags,
        params: idParams,
        headers: z.object({ [reasonHeader]: z.string().max(8000).optional() }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const original = await evidence.original(
        id,
        signedIn(request),
        reasonFrom(request.headers[reasonHeader]),
      );
      reply.header('content-disposition', attachment(original.name, `${original.sha256}`));
      return sendView(reply, original, 'private, no-store');
    },
  );

  app.post(
    '/api/evidence/:id/annotations',
    {
      config: { access: 'evidence:annotate' },
      schema: {
        summary: 'Annotate an item (a card number, a note): a custody event',
        tags,
        params: idParams,
        body: z.object({
          kind: z.enum(annotationKinds),
          value: z.string().trim().min(1).max(2000),
          readFrom: z.enum(readFromPlaces).nullish(),
          recordId: z.string().min(1).max(100).nullish(),
        }),
      },
    },
    async (request, reply) => {
      const viewer = signedIn(request);
      const { id } = request.params;
      await evidence.require(id);
      const annotation = await catalogue.annotate({
        evidence: id,
        kind: request.body.kind,
        value: request.body.value,
        readFrom: request.body.readFrom ?? null,
        recordId: request.body.recordId ?? null,
        actor: viewer.actor.userId,
      });
      return reply.status(201).send(presentAnnotation(annotation));
    },
  );

  app.post(
    '/api/evidence/annotations',
    {
      config: { access: 'evidence:annotate' },
      schema: {
        summary:
          'Annotate several items alike (a folder that names the branch): one annotation and custody event each, answered per item',
        tags,
        body: z.object({
          evidenceIds: z.array(z.string().min(1).max(100)).min(1).max(200),
          kind: z.enum(annotationKinds),
          value: z.string().trim().min(1).max(2000),
          readFrom: z.enum(readFromPlaces).nullish(),
        }),
      },
    },
    async (request) => {
      const viewer = signedIn(request);
      const { evidenceIds, kind, value, readFrom } = request.body;
      const items = [];
      for (const evidenceId of new Set(evidenceIds)) {
        try {
          const annotation = await catalogue.annotate({
            evidence: (await evidence.require(evidenceId)).id,
            kind,
            value,
            readFrom: readFrom ?? null,
            recordId: null,
            actor: viewer.actor.userId,
          });
          items.push({ evidenceId, ok: true, id: annotation.id });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          items.push({ evidenceId, ok: false, error: error.message });
        }
      }
      return { items };
    },
  );

  app.post(
    '/api/evidence/:id/body-labels',
    {
      config: { access: 'evidence:annotate' },
      schema: {
        summary: 'Record the labels read for a body (collection, branch, detainee and examination numbers)',
        tags,
        params: idParams,
        body: z.object({
          collection: z.string().trim().min(1).max(200),
          branch: z.string().max(200).nullish(),
          detaineeNumber: z.string().max(200).nullish(),
          examinationNumber: z.string().max(200).nullish(),
          labels: z
            .array(
              z.object({
                part: z.enum(bodyLabelParts),
                value: z.string().trim().min(1).max(200),
                readFrom: z.enum(readFromPlaces),
              }),
            )
            .min(1)
            .max(50),
        }),
      },
    },
    async (request, reply) => {
      const viewer = signedIn(request);
      const { id } = request.params;
      await evidence.require(id);
      const body = request.body;
      const recorded = await bodyLabels.record({
        evidence: id,
        collection: body.collection,
        ...(body.branch === undefined ? {} : { branch: body.branch }),
        ...(body.detaineeNumber === undefined ? {} : { detaineeNumber: body.detaineeNumber }),
        ...(body.examinationNumber === undefined ? {} : { examinationNumber: body.examinationNumber }),
        labels: body.labels,
        actor: viewer.actor.userId,
      });
      return reply.status(201).send(presentBodyLabels(recorded));
    },
  );
}
