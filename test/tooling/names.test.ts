// One name, one concept (CONTRIBUTING.md, "What a change comes with"): a folder name appears
// once under src/, except for the folder of src/render/ that renders the results of the folder
// of the same name; and the two families that once shared names across unrelated modules (a
// rule's canonical form against the inventory's sorted-key JSON; a step's field changes against
// the planner's per-match helper) keep one defining file each.
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

describe('names under src/', () => {
  it('a folder name is used once, or once more by the src/render/ folder that renders its results', () => {
    const byName = foldersByName();
    expect(byName.get('inventory')).toEqual(expect.arrayContaining(['inventory', 'render/inventory']));
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
});
