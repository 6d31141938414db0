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
import { parseRuleFile } from '../rules/rule-file.js';

/** Output of one git command as bytes; a failure is a UserError naming the revision. */
async function git(args: readonly string[], cwd: string, ref: string): Promise<Buffer> {
  try {
    return await gitBytes(args, { cwd, maxBytes: 256 * 1024 * 1024 });
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    const why = err.failure === 'missing' ? 'git is not installed' : err.failure === 'failed' ? err.stderr.split('\n')[0]?.trim() || 'git failed' : err.message;
    throw new UserError(`--changed-since ${JSON.stringify(ref)}: cannot read the rule files at that revision (${why})`, [
      'Name a branch, tag or commit of this repository (in CI, fetch the base branch first: actions/checkout with fetch-depth: 0).',
    ]);
  }
}

/** The rules in `rulesDir` (absolute) at revision `ref`, by name, in canonical JSON. */
async function rulesAt(ref: string, rulesDir: string, cwd: string): Promise<Map<string, string>> {
  const dir = relative(cwd, rulesDir) || '.';
  const listing = await git(['ls-tree', '-r', '-z', '--name-only', ref, '--', dir], cwd, ref);
  const files = listing.toString('utf8').split('\0').filter((file) => /\.ya?ml$/.test(file) && !file.split('/').some((part) => part.startsWith('.')));
  const byName = new Map<string, string>();
  for (const file of files) {
    const bytes = await git(['show', `${ref}:./${file}`], cwd, ref);
    for (const rule of parseRuleFile(bytes, file).rules) byName.set(rule.name, canonicalJson(rule));
  }
  return byName;
}

/** Names of `rules` (one app's, from `rulesDir`) whose normal form is not the same at `ref`. */
export async function rulesChangedSince(ref: string, rules: readonly NormalRule[], rulesDir: string, cwd: string): Promise<string[]> {
  if (ref.startsWith('-')) throw new UserError(`--changed-since ${JSON.stringify(ref)}: a revision cannot start with "-"`);
  const before = await rulesAt(ref, rulesDir, cwd);
  return rules.filter((rule) => before.get(rule.name) !== canonicalJson(rule)).map((rule) => rule.name);
}
