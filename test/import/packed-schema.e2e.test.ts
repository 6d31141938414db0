// Imported rule files name the schema of the botrules package installed in the user's project
// (node_modules/botrules/schemas/rules.schema.json, relative to the file): the packed package
// must hold that file at that place, and hold what its bin runs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { INSTALLED_SCHEMA } from '../../src/import/rule-file.js';

const run = promisify(execFile);

it('the packed package holds the schema an imported file names, and the CLI its bin runs', async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as { name: string; files: { path: string }[] }[];
  const files = new Set(packed?.files.map((file) => file.path));
  const [scope, name, ...rest] = INSTALLED_SCHEMA.split('/');
  expect([scope, name]).toEqual(['node_modules', packed?.name]);
  expect(files.has(rest.join('/'))).toBe(true);
  expect(files.has('bin/botrules.js')).toBe(true);
  expect(files.has('dist/bundle/main.mjs')).toBe(true);
});
