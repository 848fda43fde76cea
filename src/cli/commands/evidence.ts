import os from 'node:os';
import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

interface Flags {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
}

export function registerEvidence(program: Command): void {
  const evidence = program
    .command('evidence')
    .description('work with evidence items: hash files, show, find near-duplicates, annotate, search');

  withJson(evidence.command('hash'))
    .description('sha256, pdq (64 hex), pdq_quality, width, height of each file; nothing is stored')
    .argument('<files...>', 'files to hash')
    .action(async (files: string[], flags: { json?: boolean }) => {
      const { hashEvidenceFiles } = await import('../../services/evidence/evidence.js');
      const { SharpImageDecoder } = await import('../../evidence/sharp-image-decoder.js');
      const results = await hashEvidenceFiles(files, new SharpImageDecoder());
      const rows = results.map((r) => ({
        file: r.file,
        sha256: r.sha256 ?? null,
        size_bytes: r.sizeBytes ?? null,
        media_type: r.mediaType ?? null,
        pdq: r.pdq ?? null,
        pdq_quality: r.pdqQuality ?? null,
        width: r.width ?? null,
        height: r.height ?? null,
        ...(r.error ? { error: r.error } : {}),
      }));
      if (flags.json) printJson({ files: rows });
      else {
        for (const r of rows) {
          if (!r.sha256) {
            printLine(`${r.file}: ${r.error}`);
            continue;
          }
          const size = r.width && r.height ? `${r.width}x${r.height}` : '-';
          printLine(
            `${r.sha256}  ${r.pdq ?? '-'.padEnd(64)}  ${String(r.pdq_quality ?? '-').padStart(3)}  ${size}  ${r.file}${r.error ? `  (${r.error})` : ''}`,
          );
        }
      }
      if (rows.some((r) => !r.sha256)) throw new CliError('some files could not be read');
    });

  withJson(withDataOptions(evidence.command('show')))
    .description('an item: its metadata, where it was found, annotations, custody events and group')
    .argument('<item>', 'item id, SHA-256, or SHA-256 prefix (8+ hex digits)')
    .action(async (ref: string, flags: Flags) =>
      withContext(flags, async (ctx) => {
        const details = await (await services(ctx)).catalogue.show(ref);
        if (flags.json) return printJson(details);
        const { item } = details;
        printLine(`item        ${item.id}`);
        printLine(`sha256      ${item.sha256}`);
        printLine(`type        ${item.mediaType}, ${item.sizeBytes} bytes`);
        printLine(`name        ${item.originalName ?? '-'}`);
        if (item.width)
          printLine(
            `size        ${item.width}x${item.height}${item.orientation ? ` (orientation ${item.orientation})` : ''}`,
          );
        if (item.pdq) printLine(`pdq         ${item.pdq} (quality ${item.pdqQuality})`);
        printLine(
          `decoding    ${item.decodeStatus ?? '-'}${item.decodeError ? `: ${item.decodeError}` : ''}`,
        );
        if (details.group) printLine(`group       ${details.group.id} (${details.group.size} items)`);
        printLine('found at');
        for (const l of details.locations) printLine(`  ${l.foundAt}  ${l.path}`);
        if (details.annotations.length) printLine('annotations');
        for (const a of details.annotations) {
          printLine(
            `  ${a.id}  ${a.kind} ${a.value}${a.readFrom ? ` (read from ${a.readFrom})` : ''}${a.recordId ? ` → record ${a.recordId}` : ''}`,
          );
        }
        printLine('custody');
        for (const c of details.custody)
          printLine(`  ${c.at}  ${c.kind}  ${c.actor}${c.reason ? `  (${c.reason})` : ''}`);
      }),
    );

  withJson(withDataOptions(evidence.command('similar')))
    .description('items whose PDQ hash is within a distance of this one, and its near-duplicate group')
    .argument('<item>', 'item id, SHA-256, or SHA-256 prefix (8+ hex digits)')
    .option('--max-distance <bits>', 'Hamming distance, 0–256 (default 31)')
    .action(async (ref: string, flags: Flags & { maxDistance?: string }) =>
      withContext(flags, async (ctx) => {
        const distance = flags.maxDistance === undefined ? undefined : Number(flags.maxDistance);
        const result = await (await services(ctx)).catalogue.similar(ref, distance);
        if (flags.json) {
          return printJson({
            item: brief(result.item),
            max_distance: result.maxDistance,
            neighbours: result.neighbours.map((n) => ({ ...brief(n.item), distance: n.distance })),
            group: result.group && {
              id: result.group.id,
              members: result.group.members.map((m) => ({
                ...brief(m.item),
                nearest: m.nearestId,
                nearest_distance: m.nearestDistance,
              })),
            },
          });
        }
        printLine(`${result.neighbours.length} items within ${result.maxDistance} bits of ${result.item.id}`);
        for (const n of result.neighbours) {
          printLine(
            `  ${String(n.distance).padStart(3)}  ${n.item.id}  ${n.item.sha256.slice(0, 12)}  ${n.item.originalName ?? ''}`,
          );
        }
        if (result.group) {
          printLine(`group ${result.group.id}: ${result.group.members.length} items`);
          for (const m of result.group.members)
            printLine(`  ${m.item.id}  ${m.item.sha256.slice(0, 12)}  ${m.item.originalName ?? ''}`);
        }
      }),
    );

  withJson(withDataOptions(evidence.command('annotate')))
    .description(
      'record an identifier read on an item (detainee, branch or forensic-report number) or a note',
    )
    .argument('<item>', 'item id, SHA-256, or SHA-256 prefix (8+ hex digits)')
    .requiredOption('--kind <kind>', 'detainee_number, branch_number, forensic_report_number or note')
    .requiredOption('--value <text>', 'the value as written (Arabic-Indic digits are fine)')
    .option('--read-from <place>', 'card, body, overlay, file_name, folder or other')
    .option('--record <id>', 'link to this person record')
    .option('--actor <name>', 'who annotates (default os:<login name>)')
    .action(
      async (
        ref: string,
        flags: Flags & { kind: string; value: string; readFrom?: string; record?: string; actor?: string },
      ) =>
        withContext(flags, async (ctx) => {
          const annotation = await (await services(ctx)).catalogue.annotate({
            evidence: ref,
            kind: flags.kind,
            value: flags.value,
            readFrom: flags.readFrom ?? null,
            recordId: flags.record ?? null,
            actor: flags.actor?.trim() || `os:${loginName()}`,
          });
          if (flags.json) return printJson(annotation);
          printLine(
            `annotation ${annotation.id}: ${annotation.kind} ${annotation.value} (key ${annotation.valueKey})`,
          );
        }),
    );

  withJson(withDataOptions(evidence.command('link')))
    .description('link an annotation to a person record (or unlink it with --unlink)')
    .argument('<annotation>', 'annotation id')
    .option('--record <id>', 'the record')
    .option('--unlink', 'remove the link')
    .option('--actor <name>', 'who links (default os:<login name>)')
    .action(async (id: string, flags: Flags & { record?: string; unlink?: boolean; actor?: string }) =>
      withContext(flags, async (ctx) => {
        if (!flags.record === !flags.unlink)
          throw new CliError('give either --record ID or --unlink', exitCodes.usage);
        const annotation = await (await services(ctx)).catalogue.attachAnnotation(
          id,
          flags.record ?? null,
          flags.actor?.trim() || `os:${loginName()}`,
        );
        if (flags.json) return printJson(annotation);
        printLine(annotation.recordId ? `linked to record ${annotation.recordId}` : 'unlinked');
      }),
    );

  withJson(withDataOptions(evidence.command('search')))
    .description('items annotated with this value, however it was written (digits in either script)')
    .argument('<value>', 'e.g. a detainee number')
    .option('--kind <kind>', 'only annotations of this kind')
    .action(async (value: string, flags: Flags & { kind?: string }) =>
      withContext(flags, async (ctx) => {
        const result = await (await services(ctx)).catalogue.searchIdentifiers(value, flags.kind);
        if (flags.json) {
          return printJson({
            key: result.key,
            matches: result.matches.map((m) => ({ annotation: m.annotation, item: brief(m.item) })),
          });
        }
        printLine(`${result.matches.length} matches for key ${result.key}`);
        for (const m of result.matches) {
          printLine(
            `  ${m.item.id}  ${m.annotation.kind} ${m.annotation.value}${m.annotation.readFrom ? ` (${m.annotation.readFrom})` : ''}  ${m.item.originalName ?? ''}`,
          );
        }
      }),
    );
  for (const command of evidence.commands) command.exitOverride();
}

type Ctx = import('../../services/context.js').AppContext;

/** The services over a command's context. */
async function services(ctx: Ctx) {
  const { servicesOf } = await import('../../services/index.js');
  return servicesOf(ctx);
}

/** Opens the data folder, runs the work, closes (a refusal is one line: exit 2 for bad input). */
async function withContext(flags: Flags, work: (ctx: Ctx) => Promise<void>): Promise<void> {
  const { withWritableData } = await import('../data-session.js');
  await withWritableData(configFrom(flags), work);
}

function brief(item: import('../../store/repositories/evidence.js').EvidenceItem) {
  return {
    id: item.id,
    sha256: item.sha256,
    name: item.originalName,
    media_type: item.mediaType,
    pdq: item.pdq,
    pdq_quality: item.pdqQuality,
  };
}

function loginName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}
