// main.ts skips yargs' formatting of the help of the command it runs (about 50 ms of every
// command) through an internal hook of yargs. These tests fail if the skip stops working (for
// example after a yargs upgrade moves the hook), and show the help is still there for --help.
import yargs, { type Argv } from 'yargs';
import { skipHelpCache } from '../../src/cli/main.js';

function usageOf(parser: Argv): { hasCachedHelpMessage: () => boolean } {
  return (parser as unknown as { getInternalMethods: () => { getUsageInstance: () => { hasCachedHelpMessage: () => boolean } } }).getInternalMethods().getUsageInstance();
}

function parserFor(argv: string[]): Argv {
  return yargs(argv).command('check', 'a command', (y) => y.option('fast', { type: 'boolean' }), () => undefined).exitProcess(false);
}

describe("skipping yargs' help cache", () => {
  it('leaves no help formatted when a command runs', async () => {
    const parser = parserFor(['check']);
    skipHelpCache(parser);
    await parser.parseAsync();
    expect(usageOf(parser).hasCachedHelpMessage()).toBe(false);
  });

  it('is what makes the difference: without it yargs formats the help', async () => {
    const parser = parserFor(['check']);
    await parser.parseAsync();
    expect(usageOf(parser).hasCachedHelpMessage()).toBe(true);
  });

  it('still gives the help of the command on --help', async () => {
    const parser = parserFor(['check', '--help']);
    skipHelpCache(parser);
    let output = '';
    await parser.parseAsync(['check', '--help'], {}, (_err, _argv, text) => { output = text; });
    expect(output).toContain('--fast');
  });
});
