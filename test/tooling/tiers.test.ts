// The fast tier is unit tests and the CLI run in-process (jest.config.js): no test module it
// loads starts another program (GitHub's Markdown engine is an npm package, test/helpers/cmark.ts),
// so `npm test` needs nothing but Node and `npm ci`. A test that needs the binary, git, curl or a
// shell is an end-to-end suite (`*.e2e.test.ts`) in the slow tier. This follows every relative import of every fast
// suite through test/, so a helper that spawns cannot slip into the inner loop unnoticed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const TEST = join(ROOT, 'test');

interface Project { displayName: string; testPathIgnorePatterns?: string[] }
// jest.config.js is plain JavaScript without types: its projects are read as this shape.
const JEST_CONFIG: string = '../../jest.config.js';
const { default: config } = (await import(JEST_CONFIG)) as { default: { projects: Project[] } };
const fast = config.projects.find((p) => p.displayName === 'fast');
const ignored = (fast?.testPathIgnorePatterns ?? []).map((pattern) => new RegExp(pattern));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]);
}

const fastSuites = filesUnder(TEST).filter((file) => file.endsWith('.test.ts') && !ignored.some((re) => re.test(file)));

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
const SPAWNING = new Set(['node:child_process', 'child_process']);

/** The modules a test file imports: relative ones resolved to files under test/ (.ts for a written .js when there is one), and bare names. */
function importsOf(file: string): { local: string[]; bare: string[] } {
  const text = readFileSync(file, 'utf8');
  const local: string[] = [];
  const bare: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? '';
    if (!spec.startsWith('.')) bare.push(spec);
    else {
      const written = resolve(dirname(file), spec);
      const target = [written.replace(/\.js$/, '.ts'), written].find((candidate) => existsSync(candidate));
      if (target?.startsWith(TEST)) local.push(target);
    }
  }
  return { local, bare };
}

/** Every test module a suite loads, with the chain of imports that reaches it. */
function reachedFrom(suite: string): Map<string, string[]> {
  const reached = new Map<string, string[]>([[suite, [suite]]]);
  const queue = [suite];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of importsOf(file).local) {
      if (reached.has(next)) continue;
      reached.set(next, [...(reached.get(file) ?? []), next]);
      queue.push(next);
    }
  }
  return reached;
}

test('the fast tier has suites to check', () => {
  expect(ignored.length).toBeGreaterThan(0);
  expect(fastSuites.length).toBeGreaterThan(100);
  expect(fastSuites.some((f) => f.endsWith('.e2e.test.ts'))).toBe(false);
});

test('no fast suite loads a test module that starts another program', () => {
  const offenders = new Set<string>();
  for (const suite of fastSuites) {
    for (const [file, chain] of reachedFrom(suite)) {
      if (!importsOf(file).bare.some((spec) => SPAWNING.has(spec))) continue;
      offenders.add(chain.map((f) => relative(ROOT, f)).join(' → '));
    }
  }
  expect([...offenders]).toEqual([]);
});

test('npm run test:slow builds first, and both tiers take paths of test files', () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  // Run alone, the slow tier must not test whatever binary an earlier build left.
  expect(scripts['test:slow']).toMatch(/^npm run build && /);
  for (const tier of ['jest', 'test:slow']) {
    // `npm run jest -- test/plan` appends the path: after `--selectProjects NAME` it would be read
    // as one more project name (and the whole tier would run), so another option must follow.
    expect(scripts[tier]).toMatch(/ jest --selectProjects (fast|slow) --\w/);
  }
});
