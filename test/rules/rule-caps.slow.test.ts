// A stated cap on rules and rule files per app (MAX_RULES_PER_APP, MAX_RULE_FILES_PER_APP): a
// larger set is refused with one sentence before the roughly quadratic analysis runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { ruleYaml, writeTree } from './tree.js';
import { MAX_RULE_FILES_PER_APP, MAX_RULES_PER_APP } from '../../src/rules/load.js';

describe('caps per app', () => {
  it('refuses more rules than the cap in one app, naming the count and the cap', async () => {
    const rules = Array.from({ length: MAX_RULES_PER_APP + 1 }, (_, i) => ruleYaml(`R${i}`)).join('');
    const cwd = writeTree({ 'rules/a.yaml': `rules:\n${rules}` });
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe('error: the rules directory rules holds 5001 rules, more than the 5,000 rules botrules reads for one app');
  });

  it('refuses more rule files than the cap before reading them', async () => {
    const cwd = writeTree({});
    mkdirSync(join(cwd, 'rules'));
    for (let i = 0; i <= MAX_RULE_FILES_PER_APP; i++) writeFileSync(join(cwd, 'rules', `${i}.yaml`), 'not: [read');
    const result = await runCli(['validate'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe('error: the rules directory rules holds 5001 rule files, more than the 5,000 rule files botrules reads for one app');
  });
});
