// What a command that prints no help must not pay for (scripts/bundle.js, main.ts): the built
// CLI (bin/botrules.js, the bundle) runs `validate` without measuring any text for yargs' help
// layout, which is what builds Intl.Segmenter objects and Unicode-property expressions; --help
// still does (which shows the count can tell the difference).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = path.resolve('bin', 'botrules.js');
// Counts Intl.Segmenter constructions and prints the count on stderr at exit.
const counter = `data:text/javascript,${encodeURIComponent(
  "let made = 0; const Real = Intl.Segmenter; Intl.Segmenter = class extends Real { constructor(...a) { super(...a); made += 1; } }; process.on('exit', () => process.stderr.write('segmenters ' + made + '\\n'));",
)}`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'botrules-lazy-help-'));
  await mkdir(path.join(dir, 'rules'));
  await writeFile(path.join(dir, 'rules', 'a.yaml'), 'rules:\n  - name: a\n    status: active\n    actions: [ allow ]\n    conditions: { operator: $and, children: [] }\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function segmentersMadeBy(args: string[]): Promise<number> {
  const { stderr } = await run(process.execPath, ['--import', counter, bin, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  return Number(/segmenters (\d+)/.exec(stderr)?.[1]);
}

describe('the built CLI', () => {
  it('measures no help text when it runs a command', async () => {
    expect(await segmentersMadeBy(['validate'])).toBe(0);
  });

  it('still lays out the help for --help', async () => {
    expect(await segmentersMadeBy(['validate', '--help'])).toBeGreaterThan(0);
  });
});
