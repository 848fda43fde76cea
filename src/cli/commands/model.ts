import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

/** `athar model retrain --from-decisions`: a model learned from the reviewers' decisions, written, never switched. */
export function registerModel(program: Command): void {
  const model = program
    .command('model')
    .description('the linkage model: retrain it from reviewers’ decisions');
  withJson(withDataOptions(model.command('retrain')))
    .description(
      're-estimate the m-probabilities from the decisions in force (u stays from random pairs) and report F1 before and after on held-out decisions; writes the model, never switches to it',
    )
    .option('--from-decisions', 'learn from the reviewers’ decisions (the only source for now)')
    .option('--out <file>', 'where to write the model (default: <data>/models/<version>.json)')
    .option('--held-out <share>', 'share of the decisions kept to judge the models (default 0.3)')
    .action(
      async (
        flags: ConfigFlags & { fromDecisions?: boolean; out?: string; heldOut?: string; json?: boolean },
      ) => {
        if (!flags.fromDecisions)
          throw new CliError('say what to learn from: --from-decisions', exitCodes.usage);
        const share = flags.heldOut === undefined ? 0.3 : Number(flags.heldOut);
        if (!(share > 0 && share < 1))
          throw new CliError(`--held-out must be between 0 and 1 (got ${flags.heldOut})`, exitCodes.usage);
        const config = configFrom(flags);
        const { withWritableData } = await import('../data-session.js');
        const { retrainFromDecisions } = await import('../../services/tracing/retrain.js');
        const report = await withWritableData(config, (ctx) =>
          retrainFromDecisions(ctx.store, { heldOutShare: share }),
        );
        const out = flags.out ?? path.join(config.dataDir, 'models', `${report.model.version}.json`);
        fs.mkdirSync(path.dirname(out), { recursive: true });
        fs.writeFileSync(out, `${JSON.stringify(report.model, null, 2)}\n`);
        if (flags.json) return printJson({ ...report, model: report.model.version, out });
        printLine(
          `${report.decisions.matches} decided one person, ${report.decisions.nonMatches} two: trained on ${report.decisions.training}, judged on ${report.decisions.heldOut}`,
        );
        printLine(
          `F1 on the held-out decisions: ${report.f1.before.toFixed(3)} with ${report.base}, ${report.f1.after.toFixed(3)} retrained`,
        );
        printLine(
          `model ${report.model.version} written to ${out}; athar keeps its model until you adopt this one`,
        );
      },
    );
}
