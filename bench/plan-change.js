// The change the plan benchmarks make to a project's imported rule files (bench/apply.bench.js,
// bench/transition-searches.bench.js): a share of the rules' descriptions edited and a share of
// the files renamed to sort right after another rule's file, drawn from seeded random numbers.
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

export const MOVED_SHARE = 0.05;
export const EDITED_SHARE = 0.1;

/** Rule files in declared (lexical) order, each with its ruleId. */
export async function readRuleFiles(dir) {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  return Promise.all(files.map(async (file) => ({ file, doc: parse(await readFile(join(dir, file), 'utf8')) })));
}

export async function writeRule(dir, file, doc) {
  const text = await readFile(join(dir, file), 'utf8');
  const comment = text.startsWith('#') ? `${text.split('\n')[0]}\n` : '';
  await writeFile(join(dir, file), comment + stringify(doc));
}

/**
 * Edits EDITED_SHARE of the imported rules (description) and moves MOVED_SHARE (renames the
 * file to sort right after another rule's file: `01230-x` → after it comes `012305-y`).
 * Returns the ruleIds edited.
 */
export async function editAndMove(dir, next) {
  const files = await readRuleFiles(dir);
  const pickIndexes = (count) => {
    const picked = new Set();
    while (picked.size < count) picked.add(Math.floor(next() * files.length));
    return [...picked];
  };
  const edited = new Set();
  for (const i of pickIndexes(Math.round(files.length * EDITED_SHARE))) {
    const { file, doc } = files[i];
    doc.rules[0].description = `edited for the benchmark (${i})`;
    edited.add(doc.rules[0].ruleId);
    await writeRule(dir, file, doc);
  }
  for (const i of pickIndexes(Math.round(files.length * MOVED_SHARE))) {
    const target = files[Math.floor(next() * files.length)].file;
    const { file } = files[i];
    if (target === file) continue;
    await rename(join(dir, file), join(dir, `${target.split('-')[0]}5-moved-${file}`));
  }
  return edited;
}
