// `botrules test --changed-since REF`: the declared rules whose normal form differs from the
// rule of the same name in the rule files at git revision REF (or that REF does not have), so
// that coverage and mutation testing judge a pull request on the rules it touches. The files
// at REF are read with `git ls-tree` and `git show` and checked like any rule file; a rule that
// did not load there counts as changed.
import { relative } from 'node:path';
import { UserError } from '../errors.js';
import { GitError, gitBytes } from '../io/git.js';
import { canonicalJson } from '../semantics/canonical.js';
import type { NormalRule } from '../semantics/model.js';
import { parseRuleFile, type RuleFileResult } from '../rules/rule-file.js';

/** Output of one git command as bytes; a failure is a UserError naming the revision (`what` says where it was given). */
async function git(args: readonly string[], cwd: string, ref: string, what = '--changed-since'): Promise<Buffer> {
  try {
    return await gitBytes(args, { cwd, maxBytes: 256 * 1024 * 1024 });
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    const why = err.failure === 'missing' ? 'git is not installed' : err.failure === 'failed' ? err.stderr.split('\n')[0]?.trim() || 'git failed' : err.message;
    throw new UserError(`${what} ${JSON.stringify(ref)}: cannot read the rule files at that revision (${why})`, [
      'Name a branch, tag or commit of this repository (in CI, fetch the base branch first: actions/checkout with fetch-depth: 0).',
    ]);
  }
}

/** The rules in `rulesDir` (absolute) at revision `ref`, by name, in canonical JSON. */
async function rulesAt(ref: string, rulesDir: string, cwd: string): Promise<Map<string, string>> {
  const byName = new Map<string, string>();
  for (const { result } of await ruleFilesAt(ref, rulesDir, cwd, '--changed-since')) {
    for (const rule of result.rules) byName.set(rule.name, canonicalJson(rule));
  }
  return byName;
}

/**
 * The rule files of `rulesDir` (absolute) at revision `ref`, each read and checked like a rule
 * file on disk, in declared order (their paths below the directory as plain text, as the
 * loader sorts them). `what` names where the revision was given, for messages.
 */
export async function ruleFilesAt(ref: string, rulesDir: string, cwd: string, what: string, now = Date.now()): Promise<{ file: string; result: RuleFileResult }[]> {
  if (ref.startsWith('-')) throw new UserError(`${what} ${JSON.stringify(ref)}: a revision cannot start with "-"`);
  const dir = relative(cwd, rulesDir) || '.';
  const listing = await git(['ls-tree', '-r', '-z', '--name-only', ref, '--', dir], cwd, ref, what);
  const files = listing.toString('utf8').split('\0')
    .filter((file) => /\.ya?ml$/i.test(file) && !file.split('/').some((part) => part.startsWith('.')))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const read: { file: string; result: RuleFileResult }[] = [];
  for (const file of files) {
    const bytes = await git(['show', `${ref}:./${file}`], cwd, ref, what);
    read.push({ file, result: parseRuleFile(bytes, `${ref}:${file}`, now) });
  }
  return read;
}

/** Names of `rules` (one app's, from `rulesDir`) whose normal form is not the same at `ref`. */
export async function rulesChangedSince(ref: string, rules: readonly NormalRule[], rulesDir: string, cwd: string): Promise<string[]> {
  if (ref.startsWith('-')) throw new UserError(`--changed-since ${JSON.stringify(ref)}: a revision cannot start with "-"`);
  const before = await rulesAt(ref, rulesDir, cwd);
  return rules.filter((rule) => before.get(rule.name) !== canonicalJson(rule)).map((rule) => rule.name);
}
