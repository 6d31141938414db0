// Writes live rules into a rules directory. Existing rule files are never overwritten
// silently: without `force` the caller refuses (listing them); with it, every new file is
// written first and the old rule files (and only those) are removed after, so rules deleted in
// the console do not linger as files and a failed write (a full disk) leaves the old files whole.
import { mkdir, rm } from 'node:fs/promises';
import { isMap, isSeq } from 'yaml';
import { parseYamlDocument } from '../io/yaml-source.js';
import { DEFAULT_MAX_BYTES, readSourceText } from '../io/source-text.js';
import { writeFilesAtomically } from '../io/atomic-write.js';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { listRuleFiles } from '../rules/load.js';
import type { LiveRule } from '../semantics/model.js';
import { ruleFileNames, ruleFileText } from './rule-file.js';
import { plural } from '../plural.js';

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
  throw new UserError(`refusing --force: ${plural(foreign.length, 'YAML file is not a botrules rule file', 'YAML files are not botrules rule files')}:`, [
    ...foreign.map((file) => `  ${shown(file)}`),
    'import --force replaces only rule files; import into a directory of its own (--out DIR), or move these files away.',
  ]);
}

/** Removes the given rule files except those just written (`keep`), leaving every other file alone. */
export async function removeRuleFiles(files: readonly string[], keep: readonly string[] = []): Promise<void> {
  const kept = new Set(keep);
  await Promise.all(files.filter((file) => !kept.has(file)).map((file) => rm(file, { force: true })));
}

/** Writes one file per rule, in live order, naming `schema` for editors; resolves to the file names written. */
export async function writeRuleFiles(dir: string, rules: readonly LiveRule[], schema: string): Promise<string[]> {
  const ordered = [...rules].sort((a, b) => a.priority - b.priority);
  const names = ruleFileNames(ordered.map((rule) => rule.name));
  await mkdir(dir, { recursive: true });
  // All or none, and never through a symbolic link: a dangling link must not send a rule file
  // outside the directory.
  await writeFilesAtomically(ordered.map((rule, index) => {
    const name = names[index] as string;
    return { path: join(dir, name), text: ruleFileText(rule, schema), label: 'the rule file', shown: name };
  }));
  return names;
}
