// The command table. Only the module of the command being run is imported, so
// `botrules --version` and `--help` load almost nothing (the start-up benchmark checks it).
import type { Argv } from 'yargs';
import type { CommandContext, GlobalArgs } from './context.js';

export interface CommandModule {
  /** Declares the command's own flags and positionals. */
  builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs>;
  /** Runs the command; resolves to the exit code. Throws UserError/RemoteError to fail. */
  run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number>;
}

export interface CommandEntry {
  /** yargs command string, e.g. `validate` or `scripts <action>`. */
  command: string;
  describe: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { command: 'validate', describe: 'Check every rule file (schema and semantics); no network', load: () => import('./commands/validate.js') },
];

export function commandName(entry: CommandEntry): string {
  return entry.command.split(' ')[0] ?? entry.command;
}
