// `botrules diff OLD NEW [--format text|json|markdown] [--diff-budget SECONDS]`: every class of
// requests two rule sets decide differently (docs/behaviour.md, "Exhaustive behaviour diff").
// Exit 0 when none is, 2 when some class is or a part is left unchecked, 1 on error.
import { diffRuleSets } from '../../engine/diff-rule-sets.js';
import { RULE_SETS_DIFF_FORMATS, RULE_SETS_DIFF_OUTPUTS } from '../../render/diff/index.js';
import { diffBudgetOption, diffRun } from '../behaviour-diff-run.js';
import { DEFAULT_POLICY_BUDGET_SECONDS } from '../../engine/policies.js';
import { defineCommand } from '../define-command.js';
import { writeReport } from '../output.js';
import { foundOrOk } from '../../exit-codes.js';

export const { builder, run } = defineCommand({
  builder: (yargs) => diffBudgetOption(yargs)
    .usage('$0 diff OLD NEW [--format text|json|markdown]\n\n' +
      'Compare two rule sets by what they do: every class of requests whose deciding rule or actions differ, risk first ' +
      '(now allowed, then weaker, then another rule, then stricter), each with an example request the evaluator confirmed. ' +
      'Each side is a rules directory, a rule file, or a live snapshot (botrules live --out; --app chooses its app).')
    .positional('old', { type: 'string', demandOption: true, describe: 'The rule set before: a rules directory, a rule file or a live snapshot' })
    .positional('new', { type: 'string', demandOption: true, describe: 'The rule set after' })
    .option('policy-budget', { type: 'number', default: DEFAULT_POLICY_BUDGET_SECONDS, describe: 'Seconds the checks of the project\'s policies may take in all (both sides)' })
    .option('format', { choices: RULE_SETS_DIFF_FORMATS, default: 'text' as const, describe: 'How to print the diff' })
    .example('$0 diff live.json rules', 'what the rule files would change about the live rules, with no token')
    .example('$0 diff old-rules rules --format markdown', 'a pull-request comment comparing two rules directories'),

  async run(args, ctx) {
    const diff = diffRun(args, ctx);
    const result = await diffRuleSets({ ...args, old: args.old, new: args.new, run: diff.run }, ctx).finally(() => diff.stop());
    await writeReport(RULE_SETS_DIFF_OUTPUTS[args.format], result, ctx);
    return foundOrOk(result.diff.changes.length > 0 || result.diff.unchecked.length > 0 || (result.policies ?? []).length > 0);
  },
});
