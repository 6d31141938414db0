// Writes live rules into a rules directory. Existing rule files are never overwritten
// silently: without `force` the caller refuses (listing them); with it, the old rule files
// (and only those) are removed first, so rules deleted in the console do not linger as files.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { listRuleFiles } from '../rules/load.js';
import type { LiveRule } from '../rules/model.js';
import { ruleFileNames, ruleFileText } from './rule-file.js';

/**
 * Absolute paths of the rule files already below `dir`: exactly the files `validate` and
 * `plan` would read (any depth, *.yaml and *.yml). [] when `dir` does not exist yet.
 */
export async function existingRuleFiles(dir: string): Promise<string[]> {
  try {
    return await listRuleFiles(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') throw new UserError(`cannot import into ${dir}: it is a file, not a directory`);
    throw err;
  }
}

/** Removes the given rule files, leaving every other file alone. */
export async function removeRuleFiles(files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file, { force: true })));
}

/** Writes one file per rule, in live order; resolves to the file names written. */
export async function writeRuleFiles(dir: string, rules: readonly LiveRule[]): Promise<string[]> {
  const ordered = [...rules].sort((a, b) => a.priority - b.priority);
  const names = ruleFileNames(ordered.map((rule) => rule.name));
  await mkdir(dir, { recursive: true });
  await Promise.all(ordered.map((rule, index) => writeFile(join(dir, names[index] as string), ruleFileText(rule), 'utf8')));
  return names;
}
