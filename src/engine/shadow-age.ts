// Shadow rules left too long (docs/replay.md, "Shadow rules"): a rule declared `mode: shadow`
// is meant to be promoted or removed once its replay evidence is in, so `validate` warns about
// one in shadow longer than `shadowMaxAge`. Its age comes from the file's `shadowSince`, else
// from git: the date of the commit that last changed its `mode` line (`git blame`). A line not
// yet committed is new; without git (or with shallow history hiding the line) no age is known
// and nothing is said, as for any rule whose history cannot be read.
import { basename, dirname, resolve } from 'node:path';
import type { Problem } from '../errors.js';
import { gitOrUndefined } from '../io/git.js';
import type { DeclaredRule } from '../semantics/model.js';
import { DAY_MS } from '../scripts/time.js';

/** Without shadowMaxAge in botrules.yaml: a month. */
export const DEFAULT_SHADOW_MAX_AGE_DAYS = 30;

const GIT_TIMEOUT_MS = 10_000;

export async function shadowAgeWarnings(rules: readonly DeclaredRule[], options: { cwd: string; maxAgeDays: number; now: number }): Promise<Problem[]> {
  const warnings: Problem[] = [];
  for (const rule of rules) {
    if (rule.shadow === undefined) continue;
    const { at, since } = rule.shadow;
    const started = since === undefined ? await lineCommitted(resolve(options.cwd, at.file), at.line) : { time: Date.parse(`${since}T00:00:00Z`), from: 'shadowSince' };
    if (started === undefined || Number.isNaN(started.time)) continue;
    const days = Math.floor((options.now - started.time) / DAY_MS);
    if (days <= options.maxAgeDays) continue;
    const date = new Date(started.time).toISOString().slice(0, 10);
    warnings.push({
      ...at,
      message: `rule ${JSON.stringify(rule.name)} has been in shadow since ${date} (${days} days, from ${started.from}), longer than shadowMaxAge ` +
        `${options.maxAgeDays}d: promote it with mode: active, or remove it`,
    });
  }
  return warnings;
}

/** When the line was last changed by a commit (git blame), or undefined: not committed, or no git history. */
async function lineCommitted(file: string, line: number): Promise<{ time: number; from: string } | undefined> {
  const blame = await gitOrUndefined(['blame', '--porcelain', '-L', `${line},${line}`, '--', basename(file)], { cwd: dirname(file), timeoutMs: GIT_TIMEOUT_MS });
  if (blame === undefined || /^0{40} /.test(blame)) return undefined;
  const seconds = /^committer-time (\d+)$/m.exec(blame)?.[1];
  return seconds === undefined ? undefined : { time: Number(seconds) * 1000, from: 'git blame of its mode line' };
}
