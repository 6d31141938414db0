// The command table. Only the module of the command being run is imported, so
// `botrules --version` and `--help` load almost nothing (the start-up benchmark checks it).
import type { CommandModule } from './define-command.js';

export interface CommandEntry {
  /** yargs command string, e.g. `validate`; a command with actions declares them in its builder. */
  command: string;
  describe: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { command: 'validate', describe: 'Check every rule file (schema and semantics); no network', load: () => import('./commands/validate.js') },
  { command: 'plan', describe: 'Show the PATCH requests that make the live rules match the rule files', load: () => import('./commands/plan.js') },
  { command: 'apply', describe: 'Apply the plan (or a saved one), verify the result, optionally write an undo plan', load: () => import('./commands/apply.js') },
  { command: 'test', describe: 'Check which rule decides each test request (tests/*.yaml), against the rule files or a live snapshot', load: () => import('./commands/test.js') },
  { command: 'diff <old> <new>', describe: 'Compare two rule sets by what they do: every class of requests they decide differently', load: () => import('./commands/diff.js') },
  { command: 'replay [logs..]', describe: 'Decide request logs under the live and the declared rules; report every change of outcome', load: () => import('./commands/replay.js') },
  { command: 'live', describe: 'Write the live rules of every app as a snapshot, for plan --live', load: () => import('./commands/live.js') },
  { command: 'import', describe: 'Write the live rules as rule files (with ruleId, in live order)', load: () => import('./commands/import.js') },
  { command: 'scripts', describe: 'Script inventory: report a snapshot, diff two, verify their chain, build an evidence pack', load: () => import('./commands/scripts.js') },
  { command: 'config', describe: 'List the apps of the project (name, token variable, GitHub environment, rules directory); --json for a workflow matrix', load: () => import('./commands/config.js') },
  { command: 'github', describe: 'Workflow steps that talk to GitHub with the workflow token: trusted artifacts, plan comments, drift pull requests and issues', load: () => import('./commands/github.js') },
  { command: 'emulator', describe: 'Run the embedded HTTPS emulator of the service (both hosts)', load: () => import('./commands/emulator.js') },
];

export function commandName(entry: CommandEntry): string {
  return entry.command.split(' ')[0] ?? entry.command;
}
