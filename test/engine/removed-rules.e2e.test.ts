// What a rules directory ever declared, read from its git history by the rule-file parser
// (docs/behaviour.md, "Removed rules"): every version of every rule file, in a rules directory
// below the repository's root, with names as YAML writes them (block scalars too), and nothing
// from files the loader does not read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { declaredInHistory } from '../../src/engine/removed-rules.js';
import { tempDir } from '../helpers/temp.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1' };

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: GIT_ENV, stdio: 'ignore' });
}

const rule = (name: string, ruleId?: string): string => [
  'rules:',
  `  - name: ${name}`,
  ...(ruleId === undefined ? [] : [`    ruleId: ${ruleId}`]),
  '    actions: [block]',
  '    conditions:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: uri, operator: $eq, value: /admin }',
  '',
].join('\n');

describe('declaredInHistory', () => {
  it('reads every version of every rule file of a rules directory below the root, and no other file', async () => {
    const repository = tempDir('botrules-history-');
    const rules = path.join(repository, 'apps', 'shop', 'rules');
    mkdirSync(rules, { recursive: true });
    git(repository, 'init', '-q');
    writeFileSync(path.join(rules, 'a.yaml'), rule('First name of A', 'r-a'));
    writeFileSync(path.join(rules, 'b.yaml'), rule('>-\n      Block the\n      scrapers'));
    // Not a rule file: the loader reads neither, so neither declares anything.
    writeFileSync(path.join(rules, 'NOTES.md'), '  - name: From the notes\n');
    writeFileSync(path.join(rules, '.draft.yaml'), rule('A draft'));
    git(repository, 'add', '.');
    git(repository, 'commit', '-qm', 'A and B');
    writeFileSync(path.join(rules, 'a.yaml'), rule('Second name of A', 'r-a'));
    git(repository, 'commit', '-qam', 'rename A');
    git(repository, 'rm', '-q', path.join(rules, 'b.yaml'));
    git(repository, 'commit', '-qm', 'remove B');
    // Uncommitted: A's file deleted; HEAD's version of it still counts.
    rmSync(path.join(rules, 'a.yaml'));

    const history = await declaredInHistory(rules);
    expect(history).toEqual({
      known: true,
      shallow: false,
      declared: { ruleIds: new Set(['r-a']), names: new Set(['First name of A', 'Second name of A', 'Block the scrapers']) },
    });
  });

  it('knows nothing was declared in a repository without commits, and says when there is no repository', async () => {
    const repository = tempDir('botrules-history-');
    git(repository, 'init', '-q');
    expect(await declaredInHistory(repository)).toEqual({ known: true, shallow: false, declared: { ruleIds: new Set(), names: new Set() } });
    const outside = tempDir('botrules-no-history-');
    expect(await declaredInHistory(outside)).toMatchObject({ known: false });
  });
});
