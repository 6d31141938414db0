// The botrules action (action.yml) as a command line: its inputs, which the step hands over as
// INPUT_* variables, mapped onto the command to run, the flags its outputs need and the token
// variable it names (docs/security.md, "The action"). Refusals name the input at fault.
import { UserError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

/** The `command` input's values and the CLI command each runs (`scripts-diff`: `scripts diff`). */
export const ACTION_COMMANDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries([
  'validate', 'test', 'plan', 'apply', 'live', 'import', 'config', 'scripts-report', 'scripts-diff', 'scripts-verify', 'scripts-evidence',
  'github-artifact', 'github-plan-comment', 'github-drift-pr', 'github-drift-issue',
].map((name) => [name, name.replace(/^(scripts|github)-/, '$1 ').split(' ')]));

/** The action's inputs, each '' when not given. */
export interface ActionInputs { command: string; args: string; app: string; config: string; format: string; tokenEnv: string }

/** The inputs as the step passes them, `token-env` as INPUT_TOKEN_ENV. */
export function actionInputs(env: (name: string) => string | undefined): ActionInputs {
  const read = (name: string) => env(`INPUT_${name}`) ?? '';
  return { command: read('COMMAND'), args: read('ARGS'), app: read('APP'), config: read('CONFIG'), format: read('FORMAT'), tokenEnv: read('TOKEN_ENV') };
}

interface ActionInvocation {
  /** The command words (`scripts diff`), for the failure's annotation. */
  command: readonly string[];
  argv: readonly string[];
  /** Its output is Markdown: the markdown-file output, and the job summary. */
  markdown: boolean;
  /** Its output is SARIF: the sarif-file output. */
  sarif: boolean;
}

export const PLAN_FLAGS = ['--detailed-exitcode', '--format', 'markdown', '--out'] as const;

/**
 * The command line of the inputs; `planFile` is where plan saves its JSON plan. Exit code 2
 * of plan (changes present) is a result, not a failure: the JSON plan is kept for
 * `apply --plan` and as an artifact.
 */
export function actionInvocation(inputs: ActionInputs, planFile: string): ActionInvocation {
  const command = Object.hasOwn(ACTION_COMMANDS, inputs.command) ? ACTION_COMMANDS[inputs.command] : undefined;
  if (command === undefined) {
    throw new UserError(`input 'command' must be one of ${Object.keys(ACTION_COMMANDS).join(', ')}`);
  }
  const argv = [...command];
  if (inputs.config !== '') argv.push('--config', inputs.config);
  if (inputs.app !== '') argv.push('--app', inputs.app);
  const plan = inputs.command === 'plan';
  if (plan && inputs.format !== '' && inputs.format !== 'markdown') {
    throw new UserError("plan always prints Markdown here; the JSON plan is the plan-file output. Leave 'format' empty.");
  }
  if (plan) argv.push(...PLAN_FLAGS, planFile);
  else if (inputs.format !== '') argv.push('--format', inputs.format);
  // Words split on spaces, tabs and line breaks, as they are: no shell ever reads them (no
  // quoting, globbing or expansion).
  argv.push(...inputs.args.split(/[ \t\n]+/).filter((word) => word !== ''));
  return { command, argv, markdown: plan || inputs.format === 'markdown', sarif: !plan && inputs.format === 'sarif' };
}

/**
 * The variables botrules runs with: BOTRULES_TOKEN also under the name `token-env` gives (the
 * app's tokenEnv). Only names of botrules' own: never GITHUB_TOKEN, NODE_OPTIONS, PATH or
 * another variable the runner or Node.js reads with a meaning of its own.
 */
export function actionEnv(env: Readonly<Record<string, string | undefined>>, tokenEnv: string): Record<string, string | undefined> {
  if (tokenEnv === '') return env;
  if (!/^BOTRULES_[A-Z0-9_]+$/.test(tokenEnv)) {
    throw new UserError("input 'token-env' must be an environment variable name starting with BOTRULES_ such as BOTRULES_TOKEN_SHOP (never GITHUB_TOKEN, NODE_OPTIONS or PATH)");
  }
  const token = env.BOTRULES_TOKEN;
  return token === undefined || token === '' ? env : { ...env, [tokenEnv]: token };
}

/** The step's outcome: the command's exit code, except that plan's changes are no failure. */
export function actionExitCode(inputs: ActionInputs, exitCode: ExitCode): ExitCode {
  return inputs.command === 'plan' && exitCode === EXIT.found ? EXIT.ok : exitCode;
}

/** The step's outputs (action.yml), for the command's output file and, after plan, the plan file. */
export function actionOutputs(inputs: ActionInputs, run: ActionInvocation, exitCode: ExitCode, files: { output: string; plan?: string }): Record<string, string> {
  const outputs: Record<string, string> = {
    exitcode: String(exitCode),
    'has-changes': String(inputs.command === 'plan' && exitCode === EXIT.found),
    'output-file': files.output,
  };
  if (run.markdown) outputs['markdown-file'] = files.output;
  if (run.sarif) outputs['sarif-file'] = files.output;
  if (files.plan !== undefined) outputs['plan-file'] = files.plan;
  return outputs;
}
