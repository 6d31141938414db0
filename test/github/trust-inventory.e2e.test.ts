// The trust model of the workflows (README, "Trust model"), continued: the inventory workflow's
// token and snapshot, and what keeps the project's own CI and dependencies current.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { mapAt, readYamlFile, REPO_ROOT, SCHEDULED_OR_DEFAULT_BRANCH, type YamlMap } from './workflow-files.js';

describe('the inventory workflow', () => {
  const inventory = readYamlFile('examples/github-workflows/scripts-inventory.yml');
  const job = mapAt(mapAt(inventory.data, 'jobs'), 'inventory');
  const steps = job.steps as YamlMap[];

  it('keeps the inventory token in the environment inventory, for scheduled and default-branch runs only', () => {
    expect(job.environment).toBe('inventory');
    expect(job.if).toBe(SCHEDULED_OR_DEFAULT_BRANCH);
  });

  it('compares with the previous snapshot of a trusted run of this workflow only, and holds no inventory token while choosing it', () => {
    const previous = steps.find((s) => s.id === 'previous') as YamlMap;
    expect(mapAt(previous, 'with')).toEqual({
      command: 'github-artifact',
      args: '--name scripts-snapshot --workflow ${{ env.INVENTORY_WORKFLOW }} --exclude-run ${{ github.run_id }} --optional',
    });
    expect(mapAt(previous, 'env')).toEqual({ GH_TOKEN: '${{ github.token }}' });
    expect(mapAt(inventory.data, 'env').INVENTORY_WORKFLOW).toBe('botrules-scripts-inventory.yml');
    const download = steps[steps.indexOf(previous) + 1] as YamlMap;
    expect(download.run).toBe('gh run download "$RUN_ID" --repo "$GITHUB_REPOSITORY" --name scripts-snapshot --dir previous');
    expect([download.if, mapAt(download, 'env').RUN_ID]).toEqual(["steps.previous.outputs.found == 'true'", '${{ steps.previous.outputs.run-id }}']);
  });
});

describe('CI and updates', () => {
  it('tests Node.js 20, 22 and 24', () => {
    const ci = readYamlFile('.github/workflows/ci.yml');
    expect(mapAt(mapAt(mapAt(mapAt(ci.data, 'jobs'), 'test'), 'strategy'), 'matrix').node).toEqual([20, 22, 24]);
  });

  it('keeps actions and npm packages current with Dependabot', () => {
    const config = parse(readFileSync(path.join(REPO_ROOT, '.github/dependabot.yml'), 'utf8')) as { updates: { 'package-ecosystem': string }[] };
    expect(config.updates.map((u) => u['package-ecosystem']).sort()).toEqual(['github-actions', 'npm']);
  });
});
