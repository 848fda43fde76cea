import { z } from 'zod';
import { recordKinds } from '../../domain/person-record.js';
import { textEncodings } from '../../exchange/text-decode.js';
import {
  applyPfifNotes,
  ImportFileError,
  type ImportSource,
  loadImportMapping,
  readImportBytes,
} from '../../services/exchange/import-source.js';
import { type ColumnMap, parseColumnMap } from '../../services/imports/record-import.js';
import type { Services } from '../../services/index.js';
import type { ImportTable } from '../../store/schema.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';
import { actorId } from './registry-support.js';

const maxImportBytes = 20 * 1024 * 1024;
const uploadTypes = [
  'text/csv',
  'application/octet-stream',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/xml',
  'text/xml',
];

/** CSV imports over HTTP: started in the background, followed by their progress. docs/import.md. */
export async function importRoutes(app: App, services: Services): Promise<void> {
  // A closing server lets the imports it runs finish their batches first.
  app.addHook('onClose', async () => services.imports.settle());
  // The file's body parser (and its larger limit) belongs to this route alone: registered in its own scope. The
  // body is taken as bytes whatever its type, so that its encoding is found the way `athar import` finds it.
  await app.register(async (scoped: App) => {
    scoped.addContentTypeParser(
      uploadTypes,
      { parseAs: 'buffer', bodyLimit: maxImportBytes },
      (_request, body, done) => done(null, body),
    );
    scoped.post(
      '/api/imports',
      {
        config: { access: 'records:write' },
        bodyLimit: maxImportBytes,
        schema: {
          summary:
            'Import a file of person records in the background (at most 20 MB): a CSV in UTF-8, UTF-16 or Windows-1256 (text/csv), an XLSX workbook or a PFIF 1.4 document (or application/octet-stream; fileName decides); answers 202 { id, encoding, format }',
          tags: ['imports'],
          querystring: z.object({
            kind: z.enum(recordKinds),
            source: z.string().trim().min(1).max(300).optional(),
            fileName: z.string().trim().min(1).max(300).optional(),
            dryRun: z.enum(['true', 'false', '1', '0']).optional(),
            encoding: z.enum(textEncodings).optional(),
            sheet: z.string().trim().min(1).max(100).optional(),
            mapping: z.string().trim().min(1).max(64).optional(),
            acceptGuess: z.enum(['true', 'false', '1', '0']).optional(),
          }),
        },
      },
      async (request, reply) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        if (!Buffer.isBuffer(request.body) || !uploadTypes.includes(type)) {
          throw new Problem('unsupported_media_type', `send the file as one of ${uploadTypes.join(', ')}`);
        }
        const q = request.query;
        const yes = (v: string | undefined) => v === 'true' || v === '1';
        const fileName = q.fileName ?? (type === 'text/csv' ? 'upload.csv' : 'upload');
        let source: ImportSource;
        try {
          source = await readImportBytes(request.body, fileName, {
            ...(q.encoding ? { encoding: q.encoding } : {}),
            ...(q.sheet ? { sheet: q.sheet } : {}),
          });
        } catch (error) {
          // Nothing is written for a file athar cannot read: the message names the file and the byte.
          if (error instanceof ImportFileError)
            throw new Problem('validation_failed', error.message, {
              errors: [{ path: 'body', message: error.message }],
            });
          throw error;
        }
        let map: ColumnMap | null = null;
        if (q.mapping) {
          const saved = await loadImportMapping(services.ctx.store, q.mapping);
          if (saved === undefined)
            throw new Problem(
              'validation_failed',
              `no map of the headers saved under ${JSON.stringify(q.mapping)}`,
              { errors: [{ path: 'mapping', message: 'no map saved under that name' }] },
            );
          map = parseColumnMap(saved);
        } else if (source.guesses.needsConfirmation) {
          // Headers that are not athar's column names: the guessed map is used only when the user accepts it (a
          // trial run shows what it would do).
          if (!yes(q.acceptGuess) && !yes(q.dryRun))
            throw new Problem(
              'validation_failed',
              `${fileName}: the headers are not athar's column names; check the guessed map with a trial run, then import with acceptGuess=true`,
              {
                errors: source.guesses.guesses.map((g) => ({
                  path: `header.${g.header}`,
                  message: g.column ? `guessed as ${g.column}` : 'not recognised; left out',
                })),
              },
            );
          map = parseColumnMap(source.guesses.map);
        }
        const actor = actorId(request);
        const started = await services.imports.start(source, {
          kind: q.kind,
          sourceName: q.source ?? null,
          fileName,
          dryRun: yes(q.dryRun),
          actor,
          ...(map ? { map } : {}),
          ...(source.pfif
            ? {
                afterwards: () =>
                  applyPfifNotes(services.ctx.store, services.registry, source.pfif ?? [], {
                    sourceName: q.source ?? null,
                    fileName,
                    actor,
                  }),
              }
            : {}),
        });
        return reply.status(202).send({ id: started.id, format: source.format, encoding: source.encoding });
      },
    );
  });

  app.get(
    '/api/imports',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Imports, newest first: { items: [progress without the error list], next }',
        tags: ['imports'],
        querystring: z.object({
          before: z.string().min(1).max(100).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
      },
    },
    async (request) => {
      const { before, limit } = request.query;
      const rows = await services.imports.page(before, limit + 1);
      const items = rows.slice(0, limit).map(({ errors: _errors, ...row }) => presentImport(row));
      return { items, next: rows.length > limit ? (items[items.length - 1]?.id ?? null) : null };
    },
  );

  app.get(
    '/api/imports/:id',
    {
      config: { access: 'records:write' },
      schema: {
        summary: 'Progress of an import: { id, status, done, total, created, skipped, errors }',
        tags: ['imports'],
        params: z.object({ id: z.string().min(1).max(100) }),
      },
    },
    async (request) => {
      const row = await services.imports.get(request.params.id);
      if (!row) throw new Problem('not_found', `no import ${request.params.id}`);
      // Its records' linking and matching (the tracing loop takes them once they are stored).
      const linking = await services.tracing.importProgress(row.id);
      return { ...presentImport(row), linking, errors: JSON.parse(row.errors) as unknown[] };
    },
  );
}

function presentImport(row: Omit<ImportTable, 'errors'>) {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    sourceName: row.source_name,
    fileName: row.file_name,
    dryRun: row.dry_run === 1,
    done: row.done,
    total: row.total,
    created: row.created,
    skipped: row.skipped,
    errorCount: row.error_count,
    failure: row.failure,
    createdAt: row.created_at,
    createdBy: row.created_by,
    finishedAt: row.finished_at,
  };
}
