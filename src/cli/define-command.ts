// A command's definition, typed end to end: the options its builder declares are the
// arguments its `run` receives, each under one name (the camel-case one: `--dry-run` is
// `args.dryRun`), so a misspelt or undeclared option is a compile error, not `undefined`.
import type { Argv } from 'yargs';
import type { CommandContext, GlobalArgs } from './context.js';
import type { ExitCode } from '../exit-codes.js';

/** A command as `main` runs it (commands.ts loads the module of the command being run). */
export interface CommandModule {
  /** Declares the command's own flags and positionals. */
  builder(yargs: Argv<GlobalArgs>): Argv<unknown>;
  /** Runs the command with what yargs parsed; resolves to the exit code. Throws UserError/RemoteError to fail. */
  run(args: GlobalArgs, ctx: CommandContext): Promise<ExitCode>;
}

/** `dry-run` → `dryRun`, as yargs' camel-case expansion names it. */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The parsed arguments of a builder's options, under their camel-case names only, and the words (`_`). */
export type CommandArgs<Options> = { readonly [K in keyof Options as K extends string ? CamelCase<K> : K]: Options[K] } & {
  readonly _: readonly (string | number)[];
};

/** The arguments a builder function declares (for the actions of a command with subcommands). */
export type ArgsOf<Builder> = Builder extends (yargs: Argv<GlobalArgs>) => Argv<infer Options> ? CommandArgs<Options> : never;

interface CommandDefinition<Options> {
  /** Declares the command's own flags and positionals on top of the global ones. */
  builder(yargs: Argv<GlobalArgs>): Argv<Options>;
  /** Runs the command; resolves to the exit code. Throws UserError/RemoteError to fail. */
  run(args: CommandArgs<Options>, ctx: CommandContext): Promise<ExitCode>;
}

/**
 * The command module `main` loads. The one cast between yargs' parse result and the arguments
 * the builder declared is here: yargs parses what the builder declared, under both spellings.
 */
export function defineCommand<Options extends GlobalArgs>(definition: CommandDefinition<Options>): CommandModule {
  return definition as unknown as CommandModule;
}

/** One action of a command with actions (`scripts report`, `github artifact`), typed as a command is. */
interface ActionDefinition<Options> extends CommandDefinition<Options> {
  /** yargs command string: the action's name, then its positionals (`diff <old> <new>`). */
  command: string;
  describe: string;
}

/** An action, its options checked against its `run` by the compiler. */
export function defineAction<Options extends GlobalArgs>(definition: ActionDefinition<Options>): ActionDefinition<GlobalArgs> {
  return definition as unknown as ActionDefinition<GlobalArgs>;
}

/**
 * A command whose first word names an action: each action's builder declares its options, and
 * `run` runs the action the words name (`main` runs commands after parsing, so yargs' own
 * handlers never run).
 */
export function defineCommandWithActions(
  actions: readonly ActionDefinition<GlobalArgs>[],
  options: { missing?: string; usage?: string },
): CommandModule {
  // An action `$0` is what the command does when no action is named (`botrules emulator`).
  const byDefault = actions.find((action) => action.command === '$0');
  return {
    builder: (yargs) => {
      const parser = actions.reduce((each, action) => each.command(action.command, action.describe, (y) => action.builder(y as Argv<GlobalArgs>)), options.usage === undefined ? yargs : yargs.usage(options.usage));
      return options.missing === undefined ? parser : parser.demandCommand(1, options.missing);
    },
    run: async (args, ctx) => {
      const named = String((args as { _?: unknown[] })._?.[1] ?? '');
      const action = actions.find((candidate) => candidate.command.split(' ')[0] === named) ?? byDefault;
      // yargs refuses an unknown action before this runs (strict mode); never end without running one.
      if (action === undefined) throw new Error(`the action "${named}" was parsed but is not defined`);
      return action.run(args as unknown as CommandArgs<GlobalArgs>, ctx);
    },
  };
}
