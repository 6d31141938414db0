// The layering lint fires (docs/design.md, "Layering"): small probe files are written into
// src/ for the duration of the test (the import rules resolve real files, and the type-aware
// rules need files the TypeScript project includes), linted by the project's own ESLint with
// its own config, exactly as `npm run lint` lints them, and removed again.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = process.cwd();
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
const TAG = `lint-probe-${process.pid}`;

/** Each probe: where it lives in src/, its text, and the rules it must (only) break. */
const PROBES: Record<string, { file: string; text: string; expected: string[] }> = {
  backEdge: {
    file: `src/apply/${TAG}.ts`,
    text: "import type { CommandContext } from '../cli/context.js';\nexport type Probe = CommandContext;\n",
    expected: ['import-x/no-restricted-paths'],
  },
  engineFromRender: {
    file: `src/render/${TAG}.ts`,
    text: "import { planProject } from '../engine/plan.js';\nexport const probe = planProject;\n",
    expected: ['import-x/no-restricted-paths'],
  },
  sideways: {
    file: `src/api/${TAG}.ts`,
    text: "import { safeText } from '../render/sanitise.js';\nexport const probe = safeText;\n",
    expected: ['import-x/no-restricted-paths'],
  },
  impurePlanner: {
    file: `src/plan/${TAG}.ts`,
    text: "import { readFileSync } from 'node:fs';\nimport { rulesClientFor } from '../api/index.js';\nexport const probe = [readFileSync, rulesClientFor];\n",
    expected: ['import-x/no-restricted-paths', 'no-restricted-imports'],
  },
  secondYamlReader: {
    file: `src/import/${TAG}.ts`,
    text: "import { parseDocument } from 'yaml';\nexport const probe = (text: string): unknown => parseDocument(text).toJS();\n",
    expected: ['no-restricted-imports'],
  },
  cycleA: {
    file: `src/${TAG}/a.ts`,
    text: "import { b } from './b.js';\nexport const a = (n: number): number => (n > 0 ? b(n - 1) : 0);\n",
    expected: ['import-x/no-cycle'],
  },
  cycleB: {
    file: `src/${TAG}/b.ts`,
    text: "import { a } from './a.js';\nexport const b = (n: number): number => (n > 0 ? a(n - 1) : 1);\n",
    expected: ['import-x/no-cycle'],
  },
  promises: {
    file: `src/scripts/${TAG}.ts`,
    text:
      'async function later(): Promise<void> {}\n' +
      'export function forgotten(): void {\n  later();\n}\n' +
      'export function misused(items: number[]): void {\n  items.forEach(async () => later());\n}\n',
    expected: ['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises'],
  },
  // One rule semantics (docs/design.md, "One rule semantics"): no second normaliser, matcher or default.
  secondNormaliser: {
    file: `src/plan/${TAG}-normaliser.ts`,
    text:
      "import type { Leaf } from '../semantics/model.js';\n" +
      'export function canonicalLeaf(leaf: Leaf): Leaf {\n  return { conditionType: leaf.conditionType, operator: leaf.operator };\n}\n',
    expected: ['no-restricted-syntax'],
  },
  secondMatcher: {
    file: `src/import/${TAG}-matcher.ts`,
    text:
      "import type { DeclaredRule, LiveRule } from '../semantics/model.js';\n" +
      'export const matchRules = (declared: DeclaredRule[], live: LiveRule[]): LiveRule[] =>\n' +
      '  declared.flatMap((rule) => live.filter((other) => other.name === rule.name));\n',
    expected: ['no-restricted-syntax'],
  },
  defaultAgain: {
    file: `src/render/${TAG}-default.ts`,
    text: "import type { Rule } from '../semantics/model.js';\nexport const probe = (rule: Partial<Rule>): string => rule.description ?? '';\n",
    expected: ['no-restricted-syntax'],
  },
  leafDefaultAgain: {
    file: `src/evaluate/${TAG}-leaf-default.ts`,
    text: "import type { Leaf } from '../semantics/model.js';\nexport const probe = (leaf: Leaf): string => leaf.fieldOption ?? '';\n",
    expected: ['no-restricted-syntax'],
  },
  leafValuesAgain: {
    file: `src/validate/${TAG}-leaf-values.ts`,
    text: "import type { Leaf } from '../semantics/model.js';\nexport const probe = (leaf: Leaf): string[] => (Array.isArray(leaf.value) ? leaf.value : leaf.value === undefined ? [] : [leaf.value]);\n",
    expected: ['no-restricted-syntax'],
  },
  // The normal form is made only in src/semantics/normalise.ts: a type assertion that forges it fails.
  forgedNormalForm: {
    file: `src/plan/${TAG}-forged.ts`,
    text:
      "import type { DeclaredRule, LiveRule, NormalRule, Rule } from '../semantics/model.js';\n" +
      'export const parsed = (raw: unknown): LiveRule => raw as LiveRule;\n' +
      'export const unchecked = (rule: Rule): NormalRule => rule as NormalRule;\n' +
      'export const twice = (rules: Rule[]): DeclaredRule[] => rules as unknown as DeclaredRule[];\n' +
      "export const literal = (rule: Rule): LiveRule => ({ ...rule, ruleId: 'r', priority: 0 }) as LiveRule;\n",
    expected: ['botrules/forged-normal-form'],
  },
  narrowingIsNotForging: {
    file: `src/apply/${TAG}-narrowing.ts`,
    text:
      "import type { Decision } from '../evaluate/evaluate.js';\n" +
      "import type { LiveRule, NormalRule } from '../semantics/model.js';\n" +
      'export const first = (rules: LiveRule[]): LiveRule => rules[0] as LiveRule;\n' +
      'export const present = (rule: NormalRule | undefined): NormalRule => rule as NormalRule;\n' +
      'export const pair = (decisions: Decision<LiveRule>[]) => decisions as [Decision<LiveRule>, Decision<LiveRule>?];\n',
    expected: [],
  },
  semanticsReachesUp: {
    file: `src/semantics/${TAG}.ts`,
    text: "import { loadRules } from '../rules/load.js';\nexport const probe = loadRules;\n",
    expected: ['import-x/no-restricted-paths'],
  },
  semanticsOwnsIt: {
    file: `src/semantics/${TAG}-own.ts`,
    text:
      "import type { Rule } from './model.js';\n" +
      "export function normaliseRule(rule: Partial<Rule> & Pick<Rule, 'name' | 'actions' | 'conditions'>): Rule {\n" +
      "  return { ...rule, description: rule.description ?? '', status: rule.status ?? 'active' };\n}\n",
    expected: [],
  },
  // Commands never format lines (docs/design.md, "One output layer").
  commandWrites: {
    file: `src/cli/commands/${TAG}-writes.ts`,
    text:
      "import type { CommandContext } from '../context.js';\n" +
      'export function probe(ctx: CommandContext, n: number): void {\n  ctx.io.stdout.write(String(n));\n}\n',
    expected: ['no-restricted-syntax'],
  },
  commandWritesDestructured: {
    file: `src/cli/commands/${TAG}-stream.ts`,
    text: "import type { CommandContext } from '../context.js';\nexport function probe(ctx: CommandContext): void {\n  const { stderr } = ctx.io;\n  stderr.write('x');\n}\n",
    expected: ['no-restricted-syntax'],
  },
  commandBuildsTemplateLine: {
    file: `src/cli/commands/${TAG}-template.ts`,
    text: "export const probe = (n: number): string => `Wrote ${n} rules\\n`;\n",
    expected: ['no-restricted-syntax'],
  },
  commandBuildsStringLine: {
    file: `src/cli/commands/${TAG}-string.ts`,
    text: "export const probe = (): string => 'Done.\\n';\n",
    expected: ['no-restricted-syntax'],
  },
  commandHelpText: {
    file: `src/cli/commands/${TAG}-help.ts`,
    text:
      "import type { Argv } from 'yargs';\n" +
      "export const probe = (yargs: Argv, n: number): Argv => yargs.usage(`$0 probe\\n\\nSays ${n}.\\n`).epilogue('Exit 0.\\n');\n" +
      "export const joined = (lines: string[]): string => lines.join('\\n');\n",
    expected: [],
  },
  clean: {
    file: `src/engine/${TAG}.ts`,
    text:
      "import { Plan } from '../plan/plan-value.js';\nimport type { Runtime } from '../runtime.js';\n" +
      'export async function probe(ctx: Runtime): Promise<Plan> {\n  ctx.debug(ctx.cwd);\n  return Promise.resolve(new Plan([]));\n}\n',
    expected: [],
  },
};

interface LintResult {
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

let results: Map<string, string[]>;

beforeAll(async () => {
  try {
    for (const probe of Object.values(PROBES)) {
      await mkdir(path.dirname(path.join(ROOT, probe.file)), { recursive: true });
      await writeFile(path.join(ROOT, probe.file), probe.text);
    }
    const files = Object.values(PROBES).map((probe) => probe.file);
    // Exit 1 when problems are found: the report is on stdout either way.
    const output = await run(process.execPath, [ESLINT, '--format', 'json', ...files], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { code?: number; stdout?: string }) => {
        if (error.code === 1 && error.stdout !== undefined) return { stdout: error.stdout };
        throw error;
      },
    );
    const report = JSON.parse(output.stdout) as LintResult[];
    results = new Map(report.map((r) => [path.relative(ROOT, r.filePath), r.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`)]));
  } finally {
    await removeProbes();
  }
}, 180_000);

afterAll(removeProbes);

async function removeProbes(): Promise<void> {
  await rm(path.join(ROOT, 'src', TAG), { recursive: true, force: true });
  for (const probe of Object.values(PROBES)) await rm(path.join(ROOT, probe.file), { force: true });
}

test.each(Object.keys(PROBES))('probe %s breaks exactly the rules it should', (name) => {
  const probe = PROBES[name] as (typeof PROBES)[string];
  const found = results.get(probe.file);
  expect(found).toBeDefined();
  expect([...new Set(found)].sort()).toEqual([...probe.expected].sort());
});

test('the probes are gone from src/ afterwards', () => {
  for (const probe of Object.values(PROBES)) expect(existsSync(path.join(ROOT, probe.file))).toBe(false);
  expect(existsSync(path.join(ROOT, 'src', TAG))).toBe(false);
});
