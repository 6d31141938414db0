// Who approved what, when: the commits that added or changed each entry of the policy file,
// read with `git log -L` over the entry's lines (git follows the lines through earlier
// versions of the file). git runs without a shell, with arguments as a list; what it prints
// (author names, subjects) is data and goes through the sanitiser when rendered.
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { git as runGit } from '../io/git.js';
import { isBlankOrComment } from '../io/yaml-source.js';
import type { Policy, PolicyEntry } from './policy-match.js';
import { utcInstant } from './duration.js';

export interface PolicyCommit {
  commit: string;
  author: string;
  /** The author date, ISO 8601 in UTC. */
  date: string;
  subject: string;
  /** The oldest commit touching the entry added it; later ones changed it. */
  change: 'added' | 'changed';
}

export interface PolicyHistory {
  /** False when there is no git history to read; `note` says why. */
  git: boolean;
  note: string;
  /** Per entry, in file order: newest commit first. */
  entries: PolicyCommit[][];
}

const GIT_TIMEOUT_MS = 20_000;
const FIELD = '\u001f';
const RECORD = '\u001e';

export async function policyHistory(policy: Policy, cwd: string): Promise<PolicyHistory> {
  const file = resolve(cwd, policy.file);
  const none = (note: string): PolicyHistory => ({ git: false, note, entries: policy.entries.map(() => []) });
  const root = await git(['rev-parse', '--show-toplevel'], dirname(file)).catch(() => undefined);
  if (root === undefined) return none(`${policy.file} is not in a git repository (or git is not installed): no record of who approved what, when`);
  const top = root.trim();
  const path = relative(top, file).split('\\').join('/');
  const tracked = await git(['log', '-1', '--format=%H', '--', path], top).catch(() => '');
  if (tracked.trim() === '') return none(`${policy.file} has never been committed to git: no record of who approved what, when`);
  const lines = (await readFile(file, 'utf8')).split('\n');
  const entries: PolicyCommit[][] = [];
  for (const [index, entry] of policy.entries.entries()) {
    entries.push(await entryHistory(top, path, entry, endLine(policy.entries, index, lines)));
  }
  const dirty = await git(['status', '--porcelain', '--', path], top).catch(() => '');
  const shallow = await git(['rev-parse', '--is-shallow-repository'], top).catch(() => 'false');
  const notes = [`from the git history of ${policy.file}`];
  if (shallow.trim() === 'true') notes.push('the clone is shallow, so the oldest commit shown may not be the one that added an entry (check out with fetch-depth: 0)');
  if (dirty.trim() !== '') notes.push('the file has uncommitted changes, which no commit below records');
  return { git: true, note: notes.join('; '), entries };
}

/**
 * An entry runs from its first line to its last line of content: the blank lines and comments
 * after it (up to the next entry, or the end of the file) are not its own. Counted in, an entry
 * appended after a blank line would show as a change to the entry above it, by whoever appended it.
 */
function endLine(entries: readonly PolicyEntry[], index: number, lines: readonly string[]): number {
  const next = entries[index + 1];
  const start = entries[index]?.source.line ?? 1;
  let end = next ? next.source.line - 1 : lines.length;
  while (end > start && isBlankOrComment(lines[end - 1] ?? '')) end--;
  return end;
}

async function entryHistory(root: string, path: string, entry: PolicyEntry, end: number): Promise<PolicyCommit[]> {
  const format = `${RECORD}%H${FIELD}%an${FIELD}%aI${FIELD}%s`;
  let out: string;
  try {
    out = await git(['log', `-L${entry.source.line},${end}:${path}`, '-s', `--format=${format}`], root);
  } catch {
    // The lines are not in the committed file yet (an entry added but not committed).
    return [];
  }
  const commits = out
    .split(RECORD)
    .map((chunk) => chunk.split('\n')[0] ?? '')
    .filter((line) => line.includes(FIELD))
    .map((line) => {
      const [commit = '', author = '', date = '', subject = ''] = line.split(FIELD);
      // git writes the author's own offset (2026-01-20T11:00:00+02:00); the pack is in UTC throughout.
      return { commit, author, date: utcInstant(date), subject, change: 'changed' as const };
    });
  return commits.map((c, i) => (i === commits.length - 1 ? { ...c, change: 'added' as const } : c));
}

function git(args: string[], cwd: string): Promise<string> {
  return runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, maxBytes: 16 * 1024 * 1024 });
}
