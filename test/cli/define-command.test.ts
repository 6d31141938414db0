// Typed command definitions: the options a builder declares are the arguments `run` gets,
// under their camel-case name only. The @ts-expect-error lines are the test that matters:
// `npm run typecheck` fails if a misspelt, undeclared or dashed option name compiles.
import yargs from 'yargs';
import { defineCommand, type CommandArgs } from '../../src/cli/define-command.js';
import type { CommandContext, GlobalArgs } from '../../src/cli/context.js';

const seen: CommandArgs<GlobalArgs & { 'dry-run': boolean; format: 'text' | 'json' }>[] = [];

const command = defineCommand({
  builder: (parser) => parser
    .option('dry-run', { type: 'boolean', default: false })
    .option('format', { choices: ['text', 'json'] as const, default: 'text' as const }),
  async run(args) {
    const dryRun: boolean = args.dryRun;
    const format: 'text' | 'json' = args.format;
    // @ts-expect-error one spelling of a dashed option: the camel-case one
    void args['dry-run'];
    // @ts-expect-error an option the builder does not declare
    void args.dryRn;
    seen.push(args);
    return dryRun && format === 'json' ? 2 : 0;
  },
});

describe('defineCommand', () => {
  it('runs with the arguments yargs parsed for the options its builder declared', async () => {
    const parser = command.builder(yargs(['--dry-run', '--format', 'json']) as never);
    const parsed = await parser.parseAsync();
    const code = await command.run(parsed as unknown as GlobalArgs, {} as CommandContext);
    expect(code).toBe(2);
    expect(seen.map((args) => [args.dryRun, args.format])).toEqual([[true, 'json']]);
  });
});
