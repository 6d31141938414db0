// The set-up most CLI suites share: an emulator seeded with live rules, a project directory
// with an empty rules/ beside it, and the CLI run in-process in that directory with the
// emulator's URLs, tokens and certificate in its environment (test/helpers/cli.ts). One per
// test, so no test sees another's live rules or files.
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import type { Rule } from '../../src/semantics/model.js';
import { tempProject, writeConfig, writeRules, type Project } from '../apply/fixtures.js';
import { runCli, type CliResult, type RunOptions } from './cli.js';
import { startTestEmulator, type TestEmulator } from './emulator.js';

export interface EmulatorProject {
  /** The emulator itself: its live rules, its request log, its faults. */
  emulator: RunningEmulator;
  /** What reaches the emulator: BOTRULES_CONSOLE_URL, BOTRULES_TOKEN, NODE_EXTRA_CA_CERTS and the others. */
  env: Record<string, string>;
  /** The project directory, where the CLI runs. */
  dir: string;
  /** Its rules/ directory. */
  rulesDir: string;
  /** The CLI in the project directory; `options.env` adds to (or, with undefined, removes from) the emulator's environment. */
  run(argv: string[], options?: Omit<RunOptions, 'cwd'>): Promise<CliResult>;
  /** Declared rules, one file per rule, in the order given (test/apply/fixtures.ts). */
  writeRules(rules: readonly Rule[]): Promise<void>;
  /** botrules.yaml of the project. */
  writeConfig(config: unknown): Promise<void>;
}

/** Starts an emulator and a project; `close` removes both. */
export async function startEmulatorProject(options: Partial<EmulatorOptions> = {}): Promise<EmulatorProject & { close(): Promise<void> }> {
  const emu = await startTestEmulator(options);
  let project: Project;
  try {
    project = await tempProject();
  } catch (error) {
    await emu.close();
    throw error;
  }
  return {
    emulator: emu.emulator,
    env: emu.env,
    dir: project.dir,
    rulesDir: project.rulesDir,
    run: (argv, runOptions = {}) => runCli(argv, { ...runOptions, env: { ...emu.env, ...runOptions.env }, cwd: project.dir }),
    writeRules: (rules) => writeRules(project.rulesDir, rules),
    writeConfig: (config) => writeConfig(project.dir, config),
    close: () => closeBoth(emu, project),
  };
}

async function closeBoth(emu: TestEmulator, project: Project): Promise<void> {
  try {
    await emu.close();
  } finally {
    await project.close();
  }
}

/**
 * A fresh emulator project for every test of the file, started before each test (seeded with
 * `options`) and removed after it. The value returned reads the current test's project.
 */
export function emulatorProjectForEachTest(options: Partial<EmulatorOptions> | (() => Partial<EmulatorOptions>) = {}): EmulatorProject {
  const started = startedPerTest();
  beforeEach(async () => {
    await started.start(typeof options === 'function' ? options() : options);
  });
  return started.current;
}

/**
 * For files whose tests seed the emulator each in its own way: `start(options)` inside a test
 * starts its project, which is removed after that test.
 */
export function emulatorProjectOnDemand(): { start(options?: Partial<EmulatorOptions>): Promise<EmulatorProject>; current: EmulatorProject } {
  return startedPerTest();
}

function startedPerTest(): { start(options?: Partial<EmulatorOptions>): Promise<EmulatorProject>; current: EmulatorProject } {
  let project: (EmulatorProject & { close(): Promise<void> }) | undefined;
  afterEach(async () => {
    const closing = project;
    project = undefined;
    await closing?.close();
  });
  const now = (): EmulatorProject => {
    if (project === undefined) throw new Error('the emulator project exists only during a test that started it');
    return project;
  };
  const current: EmulatorProject = {
    get emulator() { return now().emulator; },
    get env() { return now().env; },
    get dir() { return now().dir; },
    get rulesDir() { return now().rulesDir; },
    run: (argv, options) => now().run(argv, options),
    writeRules: (rules) => now().writeRules(rules),
    writeConfig: (config) => now().writeConfig(config),
  };
  return {
    async start(options = {}) {
      if (project !== undefined) throw new Error('one emulator project per test: this test already started one');
      project = await startEmulatorProject(options);
      return project;
    },
    current,
  };
}
