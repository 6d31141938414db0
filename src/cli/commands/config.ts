// `botrules config [--json]`: the project's apps as the example workflows' job matrix
// (docs/behaviour.md, "The workflow matrix"), read by the one config loader: a config without
// apps is the one app "default", and a config with a problem fails as everywhere (FILE:LINE:COL,
// exit 1). No network, no token.
import { workflowMatrix } from '../../engine/workflow-matrix.js';
import { CONFIG_OUTPUTS } from '../../render/config/index.js';
import { defineCommand } from '../define-command.js';
import { writeReport } from '../output.js';
import { EXIT } from '../../exit-codes.js';

export const { builder, run } = defineCommand({
  builder: (yargs) => yargs
    .usage('$0 config [--config botrules.yaml] [--app NAME] [--json]\n\nList the apps of the project: name, token variable, GitHub environment and rules directory; no network.')
    .option('json', { type: 'boolean', default: false, describe: 'One line of JSON: [{"app","tokenEnv","environment","rulesDir"}], a workflow\'s job matrix' })
    .example('echo "apps=$($0 config --json)" >> "$GITHUB_OUTPUT"', 'the matrix of a workflow\'s per-app jobs'),

  async run(args, ctx) {
    const matrix = await workflowMatrix(args, ctx.cwd);
    await writeReport(CONFIG_OUTPUTS[args.json ? 'json' : 'text'], matrix, ctx);
    return EXIT.ok;
  },
});
