// validate warns about a rule left in shadow longer than shadowMaxAge, dated by the file's
// shadowSince or else by git (the commit that last changed its mode line): git runs for real, so
// this suite is in the end-to-end tier.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { tempDir } from '../helpers/temp.js';
import { botrules } from './fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function ruleFile(extra: string): string {
  return [
    'rules:',
    '  - name: Block bots',
    `    mode: shadow${extra}`,
    '    actions: [hardBlock]',
    '    conditions: { operator: $and, children: [{ operator: $and, children: [{ conditionType: path, operator: $eq, value: /x }] }] }',
    '',
  ].join('\n');
}

function project(rule: string, config = ''): string {
  const dir = tempDir('botrules-shadow-age-');
  mkdirSync(path.join(dir, 'rules'));
  writeFileSync(path.join(dir, 'rules', 'bots.yaml'), rule);
  if (config !== '') writeFileSync(path.join(dir, 'botrules.yaml'), config);
  return dir;
}

/** What operator-matrix did not check, said beside the rest (its path leaf). */
const COVERAGE = `${matrixCoverageLine('rules/bots.yaml:2:5', 'path', 1, 'Block bots')}\n`;

const daysSince = (date: string): number => Math.floor((Date.now() - Date.parse(`${date}T00:00:00Z`)) / DAY_MS);

it('warns, at the mode line, about a rule in shadow since a date older than the default 30 days', async () => {
  const result = await botrules(project(ruleFile('\n    shadowSince: 2026-01-02')), 'validate');
  expect(result.code).toBe(0);
  expect(result.stderr).toBe(
    `rules/bots.yaml:3:11: warning: rule "Block bots" has been in shadow since 2026-01-02 (${daysSince('2026-01-02')} days, from shadowSince), ` +
      `longer than shadowMaxAge 30d: promote it with mode: active, or remove it\n${COVERAGE}`,
  );
});

it('says nothing within shadowMaxAge, nor about a rule whose mode line git has not seen committed', async () => {
  const today = new Date().toISOString().slice(0, 10);
  expect((await botrules(project(ruleFile(`\n    shadowSince: ${today}`)), 'validate')).stderr).toBe(COVERAGE);
  const dir = project(ruleFile(''), 'shadowMaxAge: 1d\napps: [{ name: shop, rulesDir: rules }]\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  expect((await botrules(dir, 'validate')).stderr).toBe(COVERAGE);
});

it('dates the rule by the commit of its mode line when the file gives no date', async () => {
  const dir = project(ruleFile(''), 'shadowMaxAge: 10d\napps: [{ name: shop, rulesDir: rules }]\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_COMMITTER_DATE: '2026-02-01T12:00:00Z', GIT_AUTHOR_DATE: '2026-02-01T12:00:00Z' };
  execFileSync('git', ['init', '-q'], { cwd: dir, env });
  execFileSync('git', ['add', '.'], { cwd: dir, env });
  execFileSync('git', ['commit', '-qm', 'shadow'], { cwd: dir, env });
  const result = await botrules(dir, 'validate');
  expect(result.stderr).toBe(
    `rules/bots.yaml:3:11: warning: rule "Block bots" has been in shadow since 2026-02-01 (${Math.floor((Date.now() - Date.parse('2026-02-01T12:00:00Z')) / DAY_MS)} days, ` +
      `from git blame of its mode line), longer than shadowMaxAge 10d: promote it with mode: active, or remove it\n${COVERAGE}`,
  );
});
