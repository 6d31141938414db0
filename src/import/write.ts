// Writes live rules into a rules directory. Existing rule files are never overwritten
// silently: without `force` the caller refuses (listing them); with it, the old rule files
// (and only those) are removed first, so rules deleted in the console do not linger as files.
import { mkdir, rm } from 'node:fs/promises';
import { isMap, isSeq } from 'yaml';
import { parseYamlDocument } from '../io/yaml-source.js';
import { DEFAULT_MAX_BYTES, readSourceText } from '../io/source-text.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { listRuleFiles } from '../rules/load.js';
import type { LiveRule } from '../semantics/model.js';
import { ruleFileNames, ruleFileText } from './rule-file.js';

/**
 * Absolute paths of the rule files already below `dir`: exactly the files `validate` and
 * `plan` would read (any depth, *.yaml and *.yml). [] when `dir` does not exist yet.
 */
export async function existingRuleFiles(dir: string, projectDir: string): Promise<string[]> {
  try {
    return await listRuleFiles(dir, projectDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') throw new UserError(`cannot import into ${dir}: it is a file, not a directory`);
    throw err;
  }
}

/**
 * With --force, only botrules rule files (a YAML mapping with a `rules` list) may be replaced:
 * a directory that also holds other YAML (charts, compose files) is refused whole, before any
 * request, so `--out .` can never delete what is not a rule file.
 */
export async function refuseForeignYaml(files: readonly string[], shown: (file: string) => string): Promise<void> {
  const foreign: string[] = [];
  for (const file of files) {
    // Capped and strict like every YAML read: a file that cannot be read as text is not a rule file.
    const source = readSourceText(file, DEFAULT_MAX_BYTES);
    const doc = parseYamlDocument(source.ok ? source.text : '').document;
    if (!(isMap(doc.contents) && isSeq(doc.contents.get('rules', true)))) foreign.push(file);
  }
  if (foreign.length === 0) return;
  throw new UserError(`refusing --force: ${foreign.length === 1 ? '1 YAML file is not a botrules rule file' : `${foreign.length} YAML files are not botrules rule files`}:`, [
    ...foreign.map((file) => `  ${shown(file)}`),
    'import --force replaces only rule files; import into a directory of its own (--out DIR), or move these files away.',
  ]);
}

/** Removes the given rule files, leaving every other file alone. */
export async function removeRuleFiles(files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file, { force: true })));
}

/** Writes one file per rule, in live order, naming `schema` for editors; resolves to the file names written. */
export async function writeRuleFiles(dir: string, rules: readonly LiveRule[], schema: string): Promise<string[]> {
  const ordered = [...rules].sort((a, b) => a.priority - b.priority);
  const names = ruleFileNames(ordered.map((rule) => rule.name));
  await mkdir(dir, { recursive: true });
  // One by one and never through a symbolic link: a dangling link must not send a rule file
  // outside the directory.
  for (const [index, rule] of ordered.entries()) {
    const name = names[index] as string;
    await writeFileAtomic(join(dir, name), ruleFileText(rule, schema), 'the rule file', name);
  }
  return names;
}
