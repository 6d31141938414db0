// `botrules validate`: schema and semantic checks of every rule file of every app; no network.
// What fails it is thrown as one ValidationError; the top-level handler prints each problem as
// FILE:LINE:COL (and as GitHub annotations on Actions). Warnings of the files (docs/behaviour.md,
// "Warnings") and findings of the rule-set analysis (docs/evaluation.md, "Rule-set analysis") are
// printed the same way with "warning:" and do not fail the command unless --strict. The lines
// and documents are src/render/validate/'s.
import { ValidationError } from '../../errors.js';
import { validateProject, validateReport } from '../../engine/validate.js';
import { DEFAULT_POLICY_BUDGET_SECONDS } from '../../engine/policies.js';
import { VALIDATE_FORMATS, VALIDATE_OUTPUTS, validateAnnotations } from '../../render/validate/index.js';
import { defineCommand } from '../define-command.js';
import { NOW_OPTION } from '../options.js';
import { writeReport } from '../output.js';
import { EXIT } from '../../exit-codes.js';

export const { builder, run } = defineCommand({
  builder: (yargs) => yargs
    .usage('$0 validate [--dir rules] [--config botrules.yaml] [--app NAME] [--strict] [--format text|sarif|json]\n\nCheck every rule file (schema and semantics) and analyse the rule set (shadowed rules, duplicates, unsatisfiable groups, catch-alls); no network.')
    .option('now', NOW_OPTION)
    .option('strict', { type: 'boolean', default: false, describe: 'Treat warnings (file warnings and analysis findings) as errors (exit 1)' })
    .option('policy-budget', { type: 'number', default: DEFAULT_POLICY_BUDGET_SECONDS, describe: 'Seconds the policy checks may take in all; what is left is reported unchecked, never passed' })
    .option('format', { choices: VALIDATE_FORMATS, default: 'text' as const, describe: 'text; sarif: SARIF 2.1.0 on stdout for code scanning; json: one document on stdout (problems, warnings, findings, and every policy with its verdict). With sarif and json the lines stay on stderr' })
    .example('$0 validate --format sarif > botrules.sarif', 'findings for GitHub code scanning')
    .example('$0 validate --format json > validate.json', 'the report for scripts: problems, warnings, findings, policies with verdicts'),

  async run(args, ctx) {
    const project = await validateProject(args, ctx);
    const report = validateReport(project, args.strict);
    // SARIF or JSON goes to stdout, and only that document: the usual lines still go to stderr,
    // and the exit code is the same as for text (docs/behaviour.md, "SARIF").
    await writeReport(VALIDATE_OUTPUTS[args.format], report, ctx);
    ctx.annotations.write(validateAnnotations(report));
    if (report.errors.length > 0) throw new ValidationError(report.errors);
    return EXIT.ok;
  },
});
