// Runs the "Run botrules" step of action.yml the way the runner does (bash -eo pipefail, inputs
// through env, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, GITHUB_ACTIONS=true), with the real
// CLI where the action expects its bundle (<action path>/dist-action/botrules.mjs). What is
// under test is the step's shell and that the bundle's `github action` receives the inputs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { actionInputs, actionSteps, readAction } from './action-metadata.js';
import { builtCliAsAction, runBash } from './workflow-run.js';
import { isMap } from './workflow-files.js';

export interface StepRun {
  /** The step's exit status. */
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** The directory the step ran in. */
  cwd: string;
}

export interface StepRunOptions {
  inputs: Record<string, string>;
  /** The calling step's env (e.g. BOTRULES_TOKEN from a secret, an emulator's URLs). */
  env?: Record<string, string>;
  /** The rules repository to run in; an empty directory by default. */
  cwd?: string;
  /** Leave out the bundled CLI, as in a commit that is not a release. */
  withoutBundle?: boolean;
}

export async function runActionStep(options: StepRunOptions): Promise<StepRun> {
  const action = readAction();
  const step = actionSteps(action).find((s) => s.id === 'run');
  if (!step || typeof step.run !== 'string') throw new Error('action.yml has no step with id "run"');

  const root = tempDir('botrules-action-');
  const actionPath = options.withoutBundle === true ? path.join(root, 'action') : builtCliAsAction();
  const cwd = options.cwd ?? path.join(root, 'workspace');
  const runnerTemp = path.join(root, 'runner-temp');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(runnerTemp);
  const files = { output: path.join(root, 'output'), summary: path.join(root, 'summary') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');

  const inputs = withDefaults(options.inputs);
  const stepEnv = Object.fromEntries(
    Object.entries(isMap(step.env) ? step.env : {}).map(([name, value]) => [name, evaluate(String(value), inputs, actionPath)]),
  );
  const result = await runBash(step.run, cwd, {
    PATH: process.env.PATH ?? '',
    HOME: root,
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    ...options.env,
    ...stepEnv,
  });
  return { ...result, outputs: parseOutputs(readFileSync(files.output, 'utf8')), summary: readFileSync(files.summary, 'utf8'), cwd };
}

function withDefaults(given: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(actionInputs(readAction()))) {
    inputs[name] = given[name] ?? (isMap(input) && typeof input.default === 'string' ? input.default : '');
  }
  return inputs;
}

/** The two expression forms the step's env may use; anything else is a test failure to look at. */
function evaluate(value: string, inputs: Record<string, string>, actionPath: string): string {
  const match = /^\$\{\{\s*(inputs\.([\w-]+)|github\.action_path)\s*\}\}$/.exec(value);
  if (!match) throw new Error(`unexpected env value in the action's run step: ${value}`);
  return match[2] !== undefined ? (inputs[match[2]] ?? '') : actionPath;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}
