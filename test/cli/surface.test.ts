// The documented command-line surface (the list the workflow tests check invocations
// against) must be what the real CLI accepts: every documented flag of every command
// appears in that command's --help, generated from the real yargs definitions.
import { COMMAND_SURFACE, GLOBAL_FLAGS } from '../github/cli-surface.js';
import { runCli } from '../helpers/cli.js';

describe('documented flags are real flags', () => {
  it.each(Object.entries(COMMAND_SURFACE))('%s', async (command, surface) => {
    const help = await runCli([...command.split(' '), '--help']);
    expect(help.code).toBe(0);
    const flags = [...Object.keys(surface.flags), ...Object.keys(GLOBAL_FLAGS)];
    for (const flag of flags) {
      // yargs lists a negatable boolean by its positive name: --no-color is --color.
      const shown = flag.startsWith('no-') ? flag.slice(3) : flag;
      expect(help.stdout).toMatch(new RegExp(`--${shown}\\b`));
    }
  });
});
