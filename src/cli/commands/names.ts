import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

export function registerNames(program: Command): void {
  const names = program
    .command('names')
    .description('name tools: normalise, compare and score names in Arabic and Latin');

  withJson(names.command('normalize').argument('<text>', 'a name or any text'))
    .description(
      'print the matching form of TEXT (with --json: also its display form, script, parts and keys)',
    )
    .action(async (text: string, options: { json?: boolean }) => {
      const n = await import('../../names/index.js');
      const normalized = n.normalize(text);
      if (!options.json) return printLine(normalized);
      printJson({
        input: text,
        clean: n.clean(text),
        normalized,
        script: n.detectScript(text),
        parsed: n.parse(text),
        keys: n.keys(text),
      });
    });

  withJson(names.command('compare').argument('<a>', 'first name').argument('<b>', 'second name'))
    .description('compare two full names: score, verdict, parsed parts and why')
    .action(async (a: string, b: string, options: { json?: boolean }) => {
      const n = await import('../../names/index.js');
      const result = n.explainSimilarity(a, b);
      if (options.json) return printJson(result);
      printLine(`score:   ${result.score.toFixed(4)}`);
      printLine(`verdict: ${result.verdict}`);
      printLine(`a:       ${describeParse(result.a)}`);
      printLine(`b:       ${describeParse(result.b)}`);
      if (result.reordered !== 'none')
        printLine(`order:   ${result.reordered} read with its family name first`);
      for (const p of result.pairs) {
        printLine(
          `  ${p.roleA}/${p.roleB}: ${p.a} ~ ${p.b}  ${p.similarity.toFixed(3)} (weight ${p.weight}) — ${p.why}`,
        );
      }
      for (const m of result.missing)
        printLine(`  missing in ${m.side === 'a' ? 'b' : 'a'}: ${m.role} ${m.part}`);
    });

  withJson(names.command('score'))
    .description('score name pairs: reads a<TAB>b lines, writes a<TAB>b<TAB>score lines (streams)')
    .requiredOption('--pairs <file>', 'TSV file of a<TAB>b lines ("-" for stdin)')
    .option('--out <file>', 'where to write a<TAB>b<TAB>score lines (default stdout)')
    .action(async (options: { pairs: string; out?: string; json?: boolean }) => {
      if (options.json && !options.out) {
        throw new CliError(
          '--json needs --out: without it, stdout carries the scored lines',
          exitCodes.usage,
        );
      }
      const input = options.pairs === '-' ? process.stdin : openInput(options.pairs);
      const output = options.out ? fs.createWriteStream(options.out) : process.stdout;
      const label = options.pairs === '-' ? 'stdin' : options.pairs;
      const summary = await scorePairs(input, output, (line, problem) => {
        note(`athar: ${label} line ${line}: ${problem}`);
      });
      if (options.out) await new Promise<void>((resolve) => (output as fs.WriteStream).end(resolve));
      const result = { pairs: label, out: options.out ?? 'stdout', ...summary };
      if (options.json) printJson(result);
      else note(`scored ${summary.scored} pairs${summary.bad ? `; ${summary.bad} bad lines skipped` : ''}`);
      if (summary.bad > 0)
        throw new CliError(`${summary.bad} bad lines in ${label} (see above)`, exitCodes.failure);
    });
}

function describeParse(p: {
  first?: string;
  father?: string;
  grandfather?: string;
  family?: string;
  confidence: number;
}): string {
  const parts = [
    p.first && `first=${p.first}`,
    p.father && `father=${p.father}`,
    p.grandfather && `grandfather=${p.grandfather}`,
    p.family && `family=${p.family}`,
  ].filter(Boolean);
  return `${parts.join(' · ') || '(no name)'}  (confidence ${p.confidence})`;
}

function openInput(file: string): Readable {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new CliError(`cannot read ${file}`, exitCodes.usage);
  }
  return fs.createReadStream(file);
}

export interface ScoreSummary {
  lines: number;
  scored: number;
  bad: number;
}

/**
 * Streams `a<TAB>b` lines from input to `a<TAB>b<TAB>score` lines on output, in input order. Blank lines are
 * skipped; a line without exactly one tab, or with invalid UTF-8, is reported through `onBad` and skipped.
 */
export async function scorePairs(
  input: Readable,
  output: Writable,
  onBad: (line: number, problem: string) => void,
): Promise<ScoreSummary> {
  const { similarity } = await import('../../names/index.js');
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  let scored = 0;
  let bad = 0;
  let buffer = '';
  const flush = async () => {
    if (buffer === '') return;
    const chunk = buffer;
    buffer = '';
    if (!output.write(chunk)) await new Promise<void>((resolve) => output.once('drain', resolve));
  };
  for await (const raw of lines) {
    lineNo++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    if (line.includes('\uFFFD')) {
      bad++;
      onBad(lineNo, 'invalid UTF-8');
      continue;
    }
    const tab = line.indexOf('\t');
    if (tab < 0 || line.indexOf('\t', tab + 1) >= 0) {
      bad++;
      onBad(lineNo, tab < 0 ? 'expected a<TAB>b, found no tab' : 'expected a<TAB>b, found more than one tab');
      continue;
    }
    const a = line.slice(0, tab);
    const b = line.slice(tab + 1);
    buffer += `${a}\t${b}\t${similarity(a, b).toFixed(4)}\n`;
    scored++;
    if (buffer.length > 64 * 1024) await flush();
  }
  await flush();
  return { lines: lineNo, scored, bad };
}
