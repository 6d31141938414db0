// The indexed analysis against the pairwise reference on the benchmark's own rule shapes
// (bench/rule-shapes.js: random leaves over every condition type and operator, and few
// distinct leaves written many times, rules scoped to one of many hosts): the fast paths that make validate's cost independent of
// the shape (the leaf table's filing by operator, allow-before-block's skipping of rules that
// cannot give an example) must not change a single finding. The generator runs as the benchmark
// runs it (a program writing rule files, through the built importer's writer).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { analyseRules } from '../../src/validate/checks.js';
import { loadRules } from '../../src/rules/load.js';
import { tempDir } from '../helpers/temp.js';
import { analyseRulesPairwise } from './pairwise-reference.js';

async function shape(name: string, count: number) {
  const dir = tempDir();
  const written = spawnSync(process.execPath, [join('bench', 'rule-shapes.js'), name, String(count), dir, '10'], { encoding: 'utf8' });
  expect(written.stderr).toBe('');
  const loaded = await loadRules('rules', { cwd: dir });
  expect(loaded.problems).toEqual([]);
  return loaded.rules;
}

describe('the analysis on the benchmark rule shapes', () => {
  const random = ['shadowed-rule', 'unsatisfiable-group', 'catch-all', 'allow-before-block'];
  const duplicates = ['shadowed-rule', 'duplicate-conditions', 'allow-before-block'];
  // Rules scoped to one host each (200 hosts): allow-before-block tries only the allow rules whose
  // host can satisfy the blocking rule's (its pinned leaves), and finds fewer overlaps, within a host.
  const tenants = ['shadowed-rule', 'duplicate-conditions', 'allow-before-block'];
  it.each([['random', 250, random, 25], ['duplicates', 400, duplicates, 40], ['tenants', 800, tenants, 40]] as const)('%s: exactly the findings of the pairwise analysis', async (name, count, checks, overlaps) => {
    const rules = await shape(name, count);
    expect(rules).toHaveLength(count);
    const findings = analyseRules(rules);
    expect(findings).toEqual(analyseRulesPairwise(rules));
    // The comparison says something only if the checks find things, allow-before-block above all.
    expect(findings.filter((f) => f.check === 'allow-before-block').length).toBeGreaterThan(overlaps);
    expect(new Set(findings.map((f) => f.check))).toEqual(new Set(checks));
  });
});
