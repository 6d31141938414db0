// A use case reads the project config once (src/engine/project.ts): the Project it loads is the
// config loadProjectConfig returns for the same selection, and reading it once keeps the order
// in which a user is told what is wrong.
import { UserError, ValidationError } from '../../src/errors.js';
import { applyProject } from '../../src/engine/apply.js';
import { planProject } from '../../src/engine/plan.js';
import { loadProject } from '../../src/engine/project.js';
import { loadProjectConfig } from '../../src/rules/config.js';
import type { Runtime } from '../../src/runtime.js';
import { ruleYaml, writeTree } from '../rules/tree.js';

const CONFIG = [
  'maxChanges: 20',
  'apps:',
  '  - name: shop',
  '    rulesDir: rules/shop',
  '    tokenEnv: BOTRULES_TOKEN_SHOP',
  '  - name: blog',
  '    rulesDir: rules/blog',
  '',
].join('\n');

function runtime(cwd: string): Runtime {
  return { cwd, env: () => undefined, debug: () => undefined, notice: () => undefined };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => {
    throw new Error('expected the use case to fail');
  }, (err: unknown) => err);
}

test('the Project is the config loadProjectConfig reads for the same selection, --app applied', async () => {
  const withConfig = writeTree({ 'botrules.yaml': CONFIG });
  const without = writeTree({});
  for (const cwd of [withConfig, without]) {
    for (const app of [undefined, 'shop', 'blog', 'default']) {
      const selection = app === undefined ? {} : { app };
      const expected = await loadProjectConfig({ cwd, ...selection }).catch((err: unknown) => err);
      const loaded = await loadProject(selection, cwd).catch((err: unknown) => err);
      if (expected instanceof UserError) {
        expect(loaded).toBeInstanceOf(UserError);
        expect([(loaded as UserError).message, (loaded as UserError).details]).toEqual([expected.message, expected.details]);
      } else {
        expect(loaded).toEqual(expected);
      }
    }
  }
  expect((await loadProject({ app: 'blog' }, withConfig)).otherApps?.map((one) => one.name)).toEqual(['shop']);
});

test('plan reports a problem of a test file before an unknown --app, as when it read the config twice', async () => {
  const cwd = writeTree({
    'botrules.yaml': CONFIG,
    'rules/shop/a.yaml': `rules:\n${ruleYaml('A')}`,
    'rules/blog/b.yaml': `rules:\n${ruleYaml('B')}`,
    'tests/t.yaml': 'tests:\n  - name: no request\n    app: shop\n    expect: { rule: none }\n',
  });
  const err = await failure(planProject({ app: 'news' }, runtime(cwd)));
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).problems.map((problem) => problem.file)).toEqual(['tests/t.yaml']);
  await expect(planProject({ app: 'news' }, runtime(writeTree({ 'botrules.yaml': CONFIG })))).rejects.toThrow(new UserError('unknown app "news"'));
});

test('apply --replay reports logs it cannot read before a bad config, and a bad config before anything else without --replay', async () => {
  const cwd = writeTree({ 'botrules.yaml': 'apps: 5\n' });
  const withReplay = await failure(applyProject({ replayLogs: ['missing.ndjson'] }, runtime(cwd), { approve: () => Promise.resolve(false) }));
  expect(withReplay).not.toBeInstanceOf(ValidationError);
  expect(String(withReplay)).toContain('missing.ndjson');
  const without = await failure(applyProject({}, runtime(cwd), { approve: () => Promise.resolve(false) }));
  expect(without).toBeInstanceOf(ValidationError);
  expect((without as ValidationError).problems[0]?.file).toBe('botrules.yaml');
});
