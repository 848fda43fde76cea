import { z } from 'zod';
import { personRecordColumns, recordKinds } from '../../domain/person-record.js';
import { textEncodings } from '../../exchange/text-decode.js';
import {
  applyPfifNotes,
  ImportFileError,
  type ImportSource,
  listImportMappings,
  loadImportMapping,
  readImportBytes,
  saveImportMapping,
  validMappingName,
} from '../../services/exchange/import-source.js';
import { type ColumnMap, parseColumnMap } from '../../services/imports/record-import.js';
import type { Services } from '../../services/index.js';
import type { ImportTable } from '../../store/schema.js';
import { callerOf } from '../access.js';
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

const readQuery = z.object({
  fileName: z.string().trim().min(1).max(300).optional(),
  encoding: z.enum(textEncodings).optional(),
  sheet: z.string().trim().min(1).max(100).optional(),
});

/** The uploaded bytes as an import source; a file athar cannot read is a 400 naming the file and the byte. */
async function readUpload(
  body: unknown,
  contentType: string | undefined,
  q: z.infer<typeof readQuery>,
): Promise<{ source: ImportSource; fileName: string }> {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!Buffer.isBuffer(body) || !uploadTypes.includes(type)) {
    throw new Problem('unsupported_media_type', `send the file as one of ${uploadTypes.join(', ')}`);
  }
  const fileName = q.fileName ?? (type === 'text/csv' ? 'upload.csv' : 'upload');
  try {
    const source = await readImportBytes(body, fileName, {
      ...(q.encoding ? { encoding: q.encoding } : {}),
      ...(q.sheet ? { sheet: q.sheet } : {}),
    });
    return { source, fileName };
  } catch (error) {
    // Nothing is written for a file athar cannot read: the message names the file and the byte.
    if (error instanceof ImportFileError)
      throw new Problem('validation_failed', error.message, {
        errors: [{ path: 'body', message: error.message }],
      });
    throw error;
  }
}

/** A map given inline (`map`, JSON): the one the user confirmed on the imports screen. */
function inlineMap(text: string): ColumnMap {
  try {
    return parseColumnMap(JSON.parse(text));
  } catch (error) {
    const message = error instanceof SyntaxError ? 'the map is not JSON' : (error as Error).message;
    throw new Problem('validation_failed', `map: ${message}`, { errors: [{ path: 'map', message }] });
  }
}

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
      '/api/imports/preview',
      {
        config: { access: 'records:write' },
        bodyLimit: maxImportBytes,
        schema: {
          summary:
            'Read a file as POST /api/imports would and store nothing: its format, encoding, rows, headers with the column athar guesses for each, and the first rows (for the imports screen to show before a trial run)',
          tags: ['imports'],
          querystring: readQuery,
        },
      },
      async (request) => {
        const { source, fileName } = await readUpload(
          request.body,
          request.headers['content-type'],
          request.query,
        );
        return {
          fileName,
          format: source.format,
          encoding: source.encoding,
          sheet: source.sheet,
          total: source.total,
          header: source.header,
          guesses: source.guesses.guesses,
          needsConfirmation: source.guesses.needsConfirmation,
          samples: source.samples,
          columns: personRecordColumns,
        };
      },
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
          querystring: readQuery.extend({
            kind: z.enum(recordKinds),
            source: z.string().trim().min(1).max(300).optional(),
            dryRun: z.enum(['true', 'false', '1', '0']).optional(),
            mapping: z.string().trim().min(1).max(64).optional(),
            map: z.string().min(2).max(16_000).optional(),
            saveMapping: z.string().trim().min(1).max(64).optional(),
            acceptGuess: z.enum(['true', 'false', '1', '0']).optional(),
          }),
        },
      },
      async (request, reply) => {
        const q = request.query;
        const yes = (v: string | undefined) => v === 'true' || v === '1';
        const { source, fileName } = await readUpload(request.body, request.headers['content-type'], q);
        if (q.saveMapping !== undefined && !validMappingName(q.saveMapping))
          throw new Problem('validation_failed', 'saveMapping: letters, digits, space . _ - (up to 64)', {
            errors: [{ path: 'saveMapping', message: 'letters, digits, space . _ - (up to 64)' }],
          });
        let map: ColumnMap | null = null;
        if (q.map) {
          map = inlineMap(q.map);
        } else if (q.mapping) {
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
        // A map named to keep is kept when the import starts for real (a trial run keeps nothing).
        if (q.saveMapping && !yes(q.dryRun)) {
          const used = map ?? { columns: {} };
          await saveImportMapping(services.ctx.store, q.saveMapping, used);
          await services.audit.record(callerOf(request), {
            action: 'imports.mapping.saved',
            subjectType: 'import_mapping',
            subjectId: q.saveMapping,
            details: { columns: Object.keys(used.columns).length },
          });
        }
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
    '/api/imports/mappings',
    {
      config: { access: 'records:write' },
      schema: {
        summary:
          'The maps of headers saved by name (with --save-mapping or the imports screen): { items: [{ name, columns }] }',
        tags: ['imports'],
      },
    },
    async () => ({
      items: (await listImportMappings(services.ctx.store)).map((m) => ({
        name: m.name,
        columns: m.map.columns,
      })),
    }),
  );

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
