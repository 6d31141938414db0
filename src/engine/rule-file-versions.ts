// Every version the rule files of a directory ever had in the history of HEAD, read from one
// `git log -p` with a context larger than any file: each change of a file is then one hunk
// holding the whole file before (context and removed lines) and after it (context and added
// lines). One git process for the whole history: reading each version with `git show`
// (ruleFilesAt, as `diff REV:DIR` does for one revision) spawned two processes per commit and
// took 38 times as long on a history of 200 commits.
import { parseRuleFile, type RuleFileResult } from '../rules/rule-file.js';

/** Lines of context git shows around a change: more than a rule file may have. */
export const WHOLE_FILE_CONTEXT = '--unified=100000000';

/** Which files the loader reads: YAML files, none of whose path parts starts with a dot. */
function isRuleFilePath(file: string): boolean {
  return /\.ya?ml$/i.test(file) && !file.split('/').some((part) => part.startsWith('.'));
}

/**
 * The rule files of every version in `log` (the output of `git log -p --relative --no-renames
 * --format=%x00commit %H` with WHOLE_FILE_CONTEXT), each read by the rule-file parser.
 */
export function ruleFileVersions(log: string): RuleFileResult[] {
  const results: RuleFileResult[] = [];
  // A version before one change is, but at a shallow history's first commit, the version after
  // an earlier one: each text is read once.
  const read = new Set<string>();
  let commit = '';
  let file: { path: string; before: string[]; after: string[] } | undefined;
  const finish = (): void => {
    if (file === undefined || !isRuleFilePath(file.path)) return;
    for (const lines of [file.before, file.after]) {
      const text = `${lines.join('\n')}\n`;
      if (lines.length === 0 || read.has(text)) continue;
      read.add(text);
      results.push(parseRuleFile(Buffer.from(text, 'utf8'), `${commit}:${file.path}`));
    }
  };
  let inHunk = false;
  for (const line of log.split('\n')) {
    const started = /^\0?commit ([0-9a-f]{40,64})$/.exec(line)?.[1];
    if (started !== undefined || line.startsWith('diff --git ')) {
      finish();
      file = undefined;
      inHunk = false;
      if (started !== undefined) commit = started;
      continue;
    }
    if (!inHunk) {
      const named = /^(?:\+\+\+ b\/|--- a\/)(.*)$/.exec(line)?.[1];
      if (named !== undefined) file = { path: unquoted(named), before: [], after: [] };
      if (line.startsWith('@@ ')) inHunk = true;
      continue;
    }
    if (file === undefined) continue;
    const marker = line[0];
    if (marker === ' ' || marker === '-') file.before.push(line.slice(1));
    if (marker === ' ' || marker === '+') file.after.push(line.slice(1));
  }
  finish();
  return results;
}

/** A path as git prints it: plain, or in double quotes with C escapes for unusual characters. */
function unquoted(path: string): string {
  if (!path.startsWith('"')) return path;
  try {
    return JSON.parse(path) as string;
  } catch {
    return path;
  }
}
