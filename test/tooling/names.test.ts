// One name, one concept (CONTRIBUTING.md, "What a change comes with"): a folder name appears
// once under src/, except for the folder of src/render/ that renders the results of the folder
// of the same name; and the two families that once shared names across unrelated modules (a
// rule's canonical form against the inventory's sorted-key JSON; a step's field changes against
// the planner's per-match helper) keep one defining file each. More generally, an exported
// function, class, enum, constant, variable, type or interface has one defining file under
// src/: two things that are one concept are one definition, imported; two different things
// have names that say which is which. The few exceptions are the members of one interface
// (ALLOWED_SHARED below).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const BUILD_OUTPUT = new Set(['generated']);

function foldersUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !BUILD_OUTPUT.has(entry.name))
    .flatMap((entry) => [join(dir, entry.name), ...foldersUnder(join(dir, entry.name))]);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return BUILD_OUTPUT.has(entry.name) ? [] : sourceFiles(join(dir, entry.name));
    return entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [];
  });
}

/** Folder names (relative to src/, with /) grouped by their last segment. */
function foldersByName(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const folder of foldersUnder(SRC)) {
    const path = relative(SRC, folder).split(sep).join('/');
    const name = path.slice(path.lastIndexOf('/') + 1);
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  return byName;
}

/** A repeated folder name is allowed only as one renderer folder beside one other folder. */
function collision(paths: readonly string[]): boolean {
  const renderers = paths.filter((path) => path.startsWith('render/'));
  return paths.length > 1 && !(paths.length === 2 && renderers.length === 1);
}

/** Files declaring a function (or an arrow function bound to a const) of a guarded name. */
function declaringFiles(guarded: RegExp): Map<string, Set<string>> {
  const declaration = new RegExp(
    `^\\s*(?:export\\s+)?(?:async\\s+)?(?:function\\*?\\s+(${guarded.source})\\b|const\\s+(${guarded.source})\\s*=\\s*(?:async\\s*)?\\()`,
    'gm',
  );
  const files = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(declaration)) {
      const name = (match[1] ?? match[2]) as string;
      files.set(name, new Set([...(files.get(name) ?? []), relative(ROOT, file).split(sep).join('/')]));
    }
  }
  return files;
}

/**
 * A name declared with `export`: a function, class, enum, const, let or var (a destructured
 * const names each binding), or a type or interface. A re-export (`export { a } from`,
 * `export type { A } from`) declares nothing.
 */
const EXPORTED_NAME = /^export\s+(?:declare\s+)?(?:(?:async\s+)?(?:function\*?|(?:abstract\s+)?class|(?:const\s+)?enum|const|let|var)\s+(?:([A-Za-z_$][\w$]*)|\{([^}]*)\})|(?:type|interface)\s+([A-Za-z_$][\w$]*))/gm;

/** The bindings of `{ a, b: c, d = 1 }`: a, c, d. */
function destructured(pattern: string): string[] {
  return pattern.split(',').map((part) => part.split('=')[0]!.split(':').at(-1)!.trim()).filter((name) => name !== '');
}

/** Exported names of the given files (path relative to the root, with /; text), with the files declaring each. */
function exportedNames(files: readonly (readonly [string, string])[]): Map<string, Set<string>> {
  const declared = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    for (const match of text.matchAll(EXPORTED_NAME)) {
      for (const name of match[2] !== undefined ? destructured(match[2]) : [(match[1] ?? match[3]) as string]) {
        declared.set(name, new Set([...(declared.get(name) ?? []), file]));
      }
    }
  }
  return declared;
}

/**
 * Names several files export on purpose, as members of one interface, and where: every command
 * module gives src/cli/commands.ts its yargs `builder` and its `run`. A name listed here may be
 * shared only among files its pattern matches.
 */
const ALLOWED_SHARED: ReadonlyMap<string, RegExp> = new Map([
  ['builder', /^src\/cli\/commands\/[^/]+\.ts$/],
  ['run', /^src\/cli\/commands\/[^/]+\.ts$/],
]);

/** `name: file, file` for each exported name declared in more than one file and not allowed to be. */
function sharedNames(declared: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  return [...declared]
    .filter(([name, files]) => files.size > 1 && ![...files].every((file) => ALLOWED_SHARED.get(name)?.test(file)))
    .map(([name, files]) => `${name}: ${[...files].sort().join(', ')}`)
    .sort();
}

function srcFiles(): [string, string][] {
  return sourceFiles(SRC).map((file) => [relative(ROOT, file).split(sep).join('/'), readFileSync(file, 'utf8')]);
}

describe('names under src/', () => {
  it('a folder name is used once, or once more by the src/render/ folder that renders its results', () => {
    const byName = foldersByName();
    expect(byName.get('scripts')).toEqual(expect.arrayContaining(['scripts', 'render/scripts']));
    const repeated = [...byName].filter(([, paths]) => collision(paths)).map(([name, paths]) => `${name}: ${paths.join(', ')}`);
    expect(repeated).toEqual([]);
  });

  it('the check refuses a name shared outside src/render/', () => {
    expect(collision(['plan', 'engine/plan'])).toBe(true);
    expect(collision(['plan', 'render/plan', 'github/plan'])).toBe(true);
    expect(collision(['plan', 'render/plan'])).toBe(false);
  });

  it('each canonical* function and fieldChanges is declared in one file only', () => {
    const declared = declaringFiles(/canonical\w*|fieldChanges/);
    expect(declared.get('canonicalRule')).toEqual(new Set(['src/semantics/canonical.ts']));
    expect(declared.get('fieldChanges')).toEqual(new Set(['src/plan/types.ts']));
    const shared = [...declared].filter(([, files]) => files.size > 1).map(([name, files]) => `${name}: ${[...files].join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('an exported name (value, function, class, type) is declared in one file, unless ALLOWED_SHARED says why not', () => {
    const declared = exportedNames(srcFiles());
    expect(declared.get('readLiveSnapshotFile')).toEqual(new Set(['src/live/file.ts']));
    expect(sharedNames(declared)).toEqual([]);
    // Each allowance is still in use: an exception nobody needs any more is removed.
    for (const [name, where] of ALLOWED_SHARED) {
      expect([...(declared.get(name) ?? [])].filter((file) => where.test(file)).length).toBeGreaterThan(1);
    }
  });

  it('the check refuses an exported name declared twice, in any form, outside its allowance', () => {
    const declared = exportedNames([
      ['src/render/replay/describe.ts', 'export function percent(share: number): string {'],
      ['src/tests/coverage.ts', 'export const percent = (value: Ratio): number =>'],
      ['src/engine/plan.ts', 'export const { builder, run: start } = defineCommand(options);'],
      ['src/cli/commands/plan.ts', 'export const { builder, run } = defineCommand(options);'],
      ['src/cli/commands/apply.ts', 'export async function run(args) {\nexport function builder(yargs) {'],
      ['src/io/capped-read.ts', 'export class Reader {}\nexport let start = 1;'],
      ['src/io/yaml-source.ts', 'export abstract class Reader {}\nfunction percent() {}\nexport type Outcome = string;'],
      ['src/plan/types.ts', 'export interface Outcome {\nexport type { Reader, start } from \'./a.js\';\nexport { percent } from \'./b.js\';'],
    ]);
    expect(sharedNames(declared)).toEqual([
      'Outcome: src/io/yaml-source.ts, src/plan/types.ts',
      'Reader: src/io/capped-read.ts, src/io/yaml-source.ts',
      'builder: src/cli/commands/apply.ts, src/cli/commands/plan.ts, src/engine/plan.ts',
      'percent: src/render/replay/describe.ts, src/tests/coverage.ts',
      'start: src/engine/plan.ts, src/io/capped-read.ts',
    ]);
    expect(declared.get('run')).toEqual(new Set(['src/cli/commands/plan.ts', 'src/cli/commands/apply.ts']));
  });
});
