// The checks the drift pull request makes on the detect job's patch before applying it, as
// pure functions: which paths `git apply --numstat -z` names, and which of them may change.
import { numstatPaths, pathRefusal, rulesPrefix } from '../../src/github/drift-patch.js';

describe('the drift patch checks', () => {
  it('reads every path of git apply --numstat -z, both names of a rename, names with tabs and newlines', () => {
    expect(numstatPaths('1\t0\trules/a.yaml\0-\t-\trules/b\tc.yaml\0' + '2\t1\t\0rules/old.yaml\0rules/new\n.yaml\0')).toEqual([
      'rules/a.yaml', 'rules/b\tc.yaml', 'rules/old.yaml', 'rules/new\n.yaml',
    ]);
  });

  it.each([
    ['rules/a.yaml', undefined],
    ['rules/sub/b.yml', undefined],
    ['rules/a.yaml.sh', 'is not a rule file under rules/'],
    ['rules.yaml', 'is not a rule file under rules/'],
    ['rulesx/a.yaml', 'is not a rule file under rules/'],
    ['.github/workflows/x.yml', 'is not a rule file under rules/'],
    ['rules/../x.yaml', 'leaves the repository'],
    ['/etc/x.yaml', 'leaves the repository'],
  ])('%s: %s', (file, refusal) => {
    expect(pathRefusal(file, 'rules/')).toBe(refusal);
  });

  it('writes the rules directory as git names it, and refuses one outside the repository', () => {
    expect(['rules', './rules', 'rules/', './rules/', 'config/rules'].map(rulesPrefix)).toEqual(['rules/', 'rules/', 'rules/', 'rules/', 'config/rules/']);
    for (const dir of ['.', '', '/abs', '../up', 'a/../../b']) expect(() => rulesPrefix(dir)).toThrow('must be a folder inside the repository');
  });
});
