// `botrules validate`: schema and semantic checks of every rule file of every app; no network.
// Problems are thrown as one ValidationError; the top-level handler prints each as
// FILE:LINE:COL (and as GitHub annotations on Actions). Warnings of the files (docs/behaviour.md,
// "Warnings") and findings of the rule-set analysis (docs/evaluation.md, "Rule-set analysis") are
// printed the same way with "warning:" and do not fail the command unless --strict.
import type { Argv } from 'yargs';
import { ValidationError } from '../../errors.js';
import { validateProject, type Finding } from '../../engine/validate.js';
import { safeText } from '../../render/sanitise.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { reportWarnings } from '../report-error.js';
import { renderSarif } from '../../render/sarif/index.js';
import { validateSarif, type ValidateFindings } from '../../render/sarif/models.js';

export const VALIDATE_FORMATS = ['text', 'sarif'] as const;

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .usage('$0 validate [--dir rules] [--config botrules.yaml] [--app NAME] [--strict] [--format text|sarif]\n\nCheck every rule file (schema and semantics) and analyse the rule set (shadowed rules, duplicates, unsatisfiable groups, catch-alls); no network.')
    .option('strict', { type: 'boolean', default: false, describe: 'Treat warnings (file warnings and analysis findings) as errors (exit 1)' })
    .option('format', { type: 'string', choices: VALIDATE_FORMATS, default: 'text', describe: 'text, or sarif: SARIF 2.1.0 on stdout for code scanning (lines stay on stderr)' })
    .example('$0 validate --format sarif > botrules.sarif', 'findings for GitHub code scanning') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const strict = args.strict === true;
  // SARIF goes to stdout, and only SARIF: the usual lines still go to stderr, and the exit
  // code is the same as for text (docs/behaviour.md, "SARIF").
  const sarif = args.format === 'sarif' ? (findings: ValidateFindings) => renderSarif(validateSarif(findings), ctx.io.stdout) : undefined;
  const { problems, fileWarnings, findings, ...counts } = await validateProject({ ...args, strict }, ctx);
  if (problems.length > 0 || (strict && fileWarnings.length > 0)) {
    sarif?.({ problems, fileWarnings, findings: [], strict });
    if (strict && fileWarnings.length > 0) throw new ValidationError([...problems, ...fileWarnings.map((w) => ({ ...w, message: `warning: ${w.message}` }))]);
    reportWarnings(fileWarnings, ctx.io, ctx.annotations);
    throw new ValidationError(problems);
  }
  reportWarnings(fileWarnings, ctx.io, ctx.annotations);
  sarif?.({ problems: [], fileWarnings, findings, strict });
  const warnings = findings.filter((finding) => finding.severity === 'warning');
  if (strict && warnings.length > 0) {
    throw new ValidationError(warnings.map((w) => ({ file: w.file, line: w.line, col: w.col, message: `${w.message} [${w.check}]` })));
  }
  reportFindings(findings, ctx);
  const apps = counts.apps > 1 ? `${counts.apps} apps, ` : '';
  const warningCount = fileWarnings.length + warnings.length;
  const warned = warningCount > 0 ? ` (${plural(warningCount, 'warning')})` : '';
  (sarif === undefined ? ctx.io.stdout : ctx.io.stderr).write(`${apps}${plural(counts.files, 'file')}, ${plural(counts.rules, 'rule')}: valid${warned}\n`);
  return 0;
}

/** Each finding on stderr as FILE:LINE:COL: warning|info: …, and as an annotation under GitHub Actions. */
function reportFindings(findings: readonly Finding[], ctx: CommandContext): void {
  for (const f of findings) ctx.io.stderr.write(`${safeText(f.file)}:${f.line}:${f.col}: ${f.severity}: ${safeText(f.message)} [${f.check}]\n`);
  ctx.annotations.write(findings.map((f) => ({
    level: f.severity === 'warning' ? 'warning' : 'notice', file: f.file, line: f.line, col: f.col, title: `botrules ${f.check}`, message: f.message,
  })));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
