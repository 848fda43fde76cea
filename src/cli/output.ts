/** Exit codes of the CLI contract. */
export const exitCodes = { ok: 0, failure: 1, usage: 2 } as const;

/** A failure the CLI reports in one line and exits with; `exitCode` 2 for usage and configuration. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** One JSON object on stdout, as `--json` promises. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** Human messages go to stderr so stdout stays clean for data. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}
