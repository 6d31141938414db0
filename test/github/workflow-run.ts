// Runs the steps of one job of a workflow file the way the runner does, far enough for an end
// to end test: `run:` scripts with bash -eo pipefail, the botrules action's own shell step
// with the real CLI where the action expects its bundle, `${{ }}` expressions in `env:` and
// `with:` replaced from a table (an expression not in it is a test failure to look at), step
// outputs through GITHUB_OUTPUT files, and simple `if:` conditions. Steps of other actions
// (checkout, artifacts) are handed to the caller, which does what they do.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_BINARY } from '../helpers/binary.js';
import { tempDir } from '../helpers/temp.js';
import { actionInputs, actionSteps, readAction } from './action-metadata.js';
import { isMap, mapAt, usesBotrulesAction, type YamlMap } from './workflow-files.js';

export interface ShellResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** bash as the runner starts it; asynchronous, so an emulator in this process keeps answering. */
export function runBash(script: string, cwd: string, env: Record<string, string>): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export interface JobRun {
  /** Values of expressions other than steps.*.outputs.*, e.g. `matrix.app`, `secrets.BOTRULES_TOKEN`. */
  context: Record<string, string>;
  cwd: string;
  /** The environment every step starts from (PATH, RUNNER_TEMP, GITHUB_SHA, …). */
  env: Record<string, string>;
  /** The job's own `env:` map, evaluated like a step's. */
  jobEnv?: unknown;
  /** Does what a step of another action does; returns false to say "not handled". */
  otherAction(step: YamlMap, evaluated: Record<string, string>): boolean;
  /** A checkout of the action to run (one holding its bundle); by default the built CLI stands in for the bundle. */
  actionPath?: string;
}

export interface StepRecord {
  id: string;
  skipped: boolean;
  result?: ShellResult;
  outputs: Record<string, string>;
}

/** Runs the job's steps in order and stops at the first failing one, as the runner does. */
export async function runJob(steps: YamlMap[], job: JobRun): Promise<StepRecord[]> {
  const records: StepRecord[] = [];
  const outputs: Record<string, Record<string, string>> = {};
  const evaluate = (text: string): string =>
    text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
      const step = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      const value = step ? (outputs[step[1] ?? '']?.[step[2] ?? ''] ?? '') : job.context[expr];
      if (value === undefined) throw new Error(`no value for the expression ${expr}`);
      return value;
    });
  const evaluateMap = (map: unknown): Record<string, string> =>
    Object.fromEntries(Object.entries(isMap(map) ? map : {}).map(([key, value]) => [key, evaluate(String(value))]));

  for (const [index, step] of steps.entries()) {
    const id = typeof step.id === 'string' ? step.id : `step-${index}`;
    if (step.if !== undefined && !conditionHolds(String(step.if), outputs)) {
      records.push({ id, skipped: true, outputs: {} });
      continue;
    }
    const env = { ...job.env, ...evaluateMap(job.jobEnv), ...evaluateMap(step.env) };
    let result: StepResult;
    if (typeof step.run === 'string') {
      result = await runStepScript(step.run, job.cwd, env);
    } else if (usesBotrulesAction(step)) {
      result = await runBotrulesAction(evaluateMap(step.with), job.cwd, env, job.actionPath);
    } else if (job.otherAction(step, evaluateMap(step.with))) {
      result = { status: 0, stdout: '', stderr: '', outputsFile: {} };
    } else {
      throw new Error(`no stand-in for the step ${String(step.uses)}`);
    }
    const { outputsFile, ...shell } = result;
    outputs[id] = outputsFile;
    records.push({ id, skipped: false, result: shell, outputs: outputsFile });
    if (result.status !== 0 && step['continue-on-error'] !== true) break;
  }
  return records;
}

/**
 * `steps.A.outputs.B == 'V'` terms joined by `&&`: the only conditions the tested jobs use on
 * steps, with `always()` (true: the job stops at its first failing step here anyway).
 */
function conditionHolds(condition: string, outputs: Record<string, Record<string, string>>): boolean {
  return condition.split('&&').every((term) => {
    if (term.trim() === 'always()') return true;
    const match = /^\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*==\s*'([^']*)'\s*$/.exec(term);
    if (!match) throw new Error(`no stand-in for the condition ${condition}`);
    return outputs[match[1] ?? '']?.[match[2] ?? ''] === match[3];
  });
}

type StepResult = ShellResult & { outputsFile: Record<string, string> };

async function runStepScript(script: string, cwd: string, env: Record<string, string>): Promise<StepResult> {
  const dir = tempDir('botrules-step-');
  const outputFile = path.join(dir, 'output');
  writeFileSync(outputFile, '');
  writeFileSync(path.join(dir, 'summary'), '');
  const result = await runBash(script, cwd, { ...env, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: path.join(dir, 'summary') });
  return { ...result, outputsFile: parseOutputs(readFileSync(outputFile, 'utf8')) };
}

/** The action's "Run botrules" step, from `actionPath`, or with the built CLI (or the bundle CI names) as its bundle. */
async function runBotrulesAction(given: Record<string, string>, cwd: string, env: Record<string, string>, actionPath = builtCliAsAction()): Promise<StepResult> {
  const action = readAction();
  const runStep = actionSteps(action).find((s) => s.id === 'run');
  if (!runStep || typeof runStep.run !== 'string') throw new Error('action.yml has no step with id "run"');
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(actionInputs(action))) {
    inputs[name] = given[name] ?? (isMap(input) && typeof input.default === 'string' ? input.default : '');
  }
  const stepEnv = Object.fromEntries(
    Object.entries(mapAt(runStep, 'env')).map(([name, value]) => {
      const match = /^\$\{\{\s*(?:inputs\.([\w-]+)|github\.action_path)\s*\}\}$/.exec(String(value));
      if (!match) throw new Error(`unexpected env value in the action's run step: ${String(value)}`);
      return [name, match[1] !== undefined ? (inputs[match[1]] ?? '') : actionPath];
    }),
  );
  return runStepScript(runStep.run, cwd, { ...env, ...stepEnv });
}

/** An action directory whose bundle is the built CLI. */
export function builtCliAsAction(): string {
  const actionPath = tempDir('botrules-action-path-');
  mkdirSync(path.join(actionPath, 'dist-action'));
  writeFileSync(path.join(actionPath, 'dist-action', 'botrules.mjs'), `import ${JSON.stringify(pathToFileURL(path.resolve(CLI_BINARY)).href)};\n`);
  return actionPath;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}
