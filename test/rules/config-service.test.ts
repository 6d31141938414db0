// The service's capabilities in botrules.yaml (docs/behaviour.md, "Creating and deleting rules"):
// `service` at the top level or per app, `maxDeletes`, and the two configuration errors this
// adds, each at its place in the file.
import { ValidationError } from '../../src/errors.js';
import { loadProjectConfig } from '../../src/rules/config.js';
import { writeTree } from './tree.js';

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  const err: unknown = await promise.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(err)}`);
  return err.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`);
}

const config = (lines: string[]): string => `${lines.join('\n')}\n`;

describe('service capabilities in the config', () => {
  it('says nothing: no service and no maxDeletes on any app', async () => {
    const cwd = writeTree({ 'botrules.yaml': config(['apps:', '  - { name: shop, rulesDir: rules }']) });
    const [app] = (await loadProjectConfig({ cwd })).apps;
    expect(app).not.toHaveProperty('service');
    expect(app).not.toHaveProperty('maxDeletes');
  });

  it('takes each key from the app, else from the top level, else false; maxDeletes as a count or a share', async () => {
    const cwd = writeTree({
      'botrules.yaml': config([
        'service: { create: true }',
        'maxDeletes: "10%"',
        'apps:',
        '  - { name: shop, rulesDir: rules/shop, service: { delete: true }, unmanaged: delete, maxDeletes: 3 }',
        '  - { name: blog, rulesDir: rules/blog, tokenEnv: BOTRULES_BLOG, service: { create: false } }',
      ]),
    });
    const [shop, blog] = (await loadProjectConfig({ cwd })).apps;
    expect(shop).toMatchObject({ service: { create: true, delete: true }, unmanaged: 'delete', maxDeletes: { count: 3 } });
    expect(blog).toMatchObject({ service: { create: false, delete: false }, unmanaged: 'keep', maxDeletes: { share: 0.1 } });
  });

  it('refuses a service key it does not know, at its place', async () => {
    const cwd = writeTree({ 'botrules.yaml': config(['service:', '  create: true', '  update: true', 'apps:', '  - { name: shop, rulesDir: rules }']) });
    const problems = await problemsOf(loadProjectConfig({ cwd }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^botrules\.yaml:3:3: .*update/);
  });

  it('refuses unmanaged: delete without service.delete, at the unmanaged that applies, saying so', async () => {
    const perApp = writeTree({
      'botrules.yaml': config(['service: { create: true }', 'apps:', '  - name: shop', '    rulesDir: rules', '    unmanaged: delete']),
    });
    expect(await problemsOf(loadProjectConfig({ cwd: perApp }))).toEqual([
      'botrules.yaml:5:16: unmanaged: delete needs service.delete: true (app "shop"): botrules deletes rules only on a service that ' +
        'accepts DELETE; set service.delete: true if it does, or choose unmanaged: keep, pause or fail',
    ]);
    const topLevel = writeTree({
      'botrules.yaml': config(['unmanaged: delete', 'apps:', '  - { name: shop, rulesDir: rules/shop }', '  - { name: blog, rulesDir: rules/blog, tokenEnv: BOTRULES_BLOG }']),
    });
    const problems = await problemsOf(loadProjectConfig({ cwd: topLevel }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^botrules\.yaml:1:12: unmanaged: delete needs service\.delete: true \(app "shop" takes it from the top level\)/);
    // Once the service deletes, the same policy is accepted.
    const allowed = writeTree({ 'botrules.yaml': config(['unmanaged: delete', 'service: { delete: true }', 'apps:', '  - { name: shop, rulesDir: rules }']) });
    expect((await loadProjectConfig({ cwd: allowed })).apps[0]).toMatchObject({ unmanaged: 'delete', service: { create: false, delete: true } });
  });
});
