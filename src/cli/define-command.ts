// A command's definition, typed end to end: the options its builder declares are the
// arguments its `run` receives, each under one name (the camel-case one: `--dry-run` is
// `args.dryRun`), so a misspelt or undeclared option is a compile error, not `undefined`.
import type { Argv } from 'yargs';
import type { CommandModule } from './commands.js';
import type { CommandContext, GlobalArgs } from './context.js';

/** `dry-run` → `dryRun`, as yargs' camel-case expansion names it. */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The parsed arguments of a builder's options, under their camel-case names only, and the words (`_`). */
export type CommandArgs<Options> = { readonly [K in keyof Options as K extends string ? CamelCase<K> : K]: Options[K] } & {
  readonly _: readonly (string | number)[];
};

/** The arguments a builder function declares (for the actions of a command with subcommands). */
export type ArgsOf<Builder> = Builder extends (yargs: Argv<GlobalArgs>) => Argv<infer Options> ? CommandArgs<Options> : never;

export interface CommandDefinition<Options> {
  /** Declares the command's own flags and positionals on top of the global ones. */
  builder(yargs: Argv<GlobalArgs>): Argv<Options>;
  /** Runs the command; resolves to the exit code. Throws UserError/RemoteError to fail. */
  run(args: CommandArgs<Options>, ctx: CommandContext): Promise<number>;
}

/**
 * The command module `main` loads. The one cast between yargs' parse result and the arguments
 * the builder declared is here: yargs parses what the builder declared, under both spellings.
 */
export function defineCommand<Options extends GlobalArgs>(definition: CommandDefinition<Options>): CommandModule {
  return definition as unknown as CommandModule;
}
