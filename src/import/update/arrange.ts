// Putting the rules in live order with as few moves as possible: the rules that already
// stand in live order (the longest increasing subsequence the planner also uses) stay, and
// every other rule — moved or new — is placed right after the rule that precedes it live, in
// ascending live order, so by induction the rules placed so far are in live order
// (docs/behaviour.md, "import --update"). In a directory of one rule per file, a rule is
// placed in a file of its own whose name sorts into the right place. Only ruleIds move here:
// patch.ts turns the result into operations.
import { posix } from 'node:path';
import { maxWeightIncreasingSubsequence } from '../../plan/order.js';
import type { LiveRule } from '../../semantics/model.js';
import { slugify } from '../rule-file.js';

export interface WorkFile {
  /** Path below the rules directory, with "/" separators: the order files are read in. */
  rel: string;
  /** The live ruleIds of the file's rules, in file order. */
  ruleIds: string[];
  /** How many rules the file held before the update (0 for a file this update creates). */
  originalCount: number;
}

/** What happened to one rule, for the command's report. */
export interface RulePlacement {
  rule: LiveRule;
  kind: 'added' | 'moved';
  rel: string;
  createdFile: boolean;
}

/** Rearranges `files` (in read order) in place so their blocks follow `live` order. */
export function arrange(files: WorkFile[], live: readonly LiveRule[]): RulePlacement[] {
  const order = [...live].sort((a, b) => a.priority - b.priority);
  const liveIndex = new Map(order.map((rule, index) => [rule.ruleId, index]));
  const kept = keptRuleIds(files, liveIndex);
  const placements: RulePlacement[] = [];
  order.forEach((rule, index) => {
    if (kept.has(rule.ruleId)) return;
    const moving = takeBlock(files, rule.ruleId);
    const before = index === 0 ? undefined : locate(files, (order[index - 1] as LiveRule).ruleId);
    placements.push(place(files, rule, moving, before));
  });
  return placements;
}

function keptRuleIds(files: readonly WorkFile[], liveIndex: ReadonlyMap<string, number>): Set<string> {
  const present = files.flatMap((file) => file.ruleIds);
  const ranks = new Map([...present].sort((a, b) => (liveIndex.get(a) as number) - (liveIndex.get(b) as number)).map((id, rank) => [id, rank]));
  const keep = maxWeightIncreasingSubsequence(present.map((id) => ranks.get(id) as number), present.map(() => 1));
  return new Set(present.filter((_, i) => keep[i]));
}

interface Where {
  file: number;
  block: number;
}

function locate(files: readonly WorkFile[], ruleId: string): Where | undefined {
  for (const [file, work] of files.entries()) {
    const block = work.ruleIds.indexOf(ruleId);
    if (block !== -1) return { file, block };
  }
  return undefined;
}

/** Takes the rule out of its file; false when no file holds it. */
function takeBlock(files: readonly WorkFile[], ruleId: string): boolean {
  const where = locate(files, ruleId);
  if (where === undefined) return false;
  (files[where.file] as WorkFile).ruleIds.splice(where.block, 1);
  return true;
}

function place(files: WorkFile[], rule: LiveRule, moving: boolean, before: Where | undefined): RulePlacement {
  const kind = moving ? 'moved' : 'added';
  const anchorFile = before === undefined ? files.findIndex((f) => f.ruleIds.length > 0) : before.file;
  const anchor = files[anchorFile];
  if (anchor === undefined || isOneRuleFile(anchor)) {
    const after = before === undefined ? -1 : anchorFile;
    const rel = fileNameBetween(files, after, rule, anchor?.rel);
    if (rel !== undefined) {
      files.splice(after + 1, 0, { rel, ruleIds: [rule.ruleId], originalCount: 0 });
      return { rule, kind, rel, createdFile: true };
    }
  }
  const target = anchor as WorkFile;
  target.ruleIds.splice(before === undefined ? 0 : before.block + 1, 0, rule.ruleId);
  return { rule, kind, rel: target.rel, createdFile: false };
}

function isOneRuleFile(file: WorkFile): boolean {
  return file.originalCount === 1 && file.ruleIds.length === 1;
}

/**
 * A name for a new file that sorts right after `files[after]` (or first, for -1) and before
 * the file that follows it, numbered like its neighbours (`015-name.yaml` between `010-…` and
 * `020-…`); undefined when no such name exists.
 */
function fileNameBetween(files: readonly WorkFile[], after: number, rule: LiveRule, anchorRel: string | undefined): string | undefined {
  const previous = files[after]?.rel;
  const next = files.slice(after + 1).find((f) => f.ruleIds.length > 0 || f.originalCount > 0)?.rel;
  const reference = previous ?? next ?? anchorRel;
  const dir = reference === undefined ? '' : posix.dirname(reference);
  const width = reference === undefined ? 3 : (numberOf(reference)?.length ?? 3);
  const low = previous === undefined ? -1 : Number(numberOf(previous) ?? NaN);
  const high = next === undefined ? Infinity : Number(numberOf(next) ?? NaN);
  if (Number.isNaN(low) || Number.isNaN(high)) return undefined;
  const number = high === Infinity ? Math.max(low, 0) + 10 : low === -1 ? Math.floor(high / 2) : Math.floor((low + high) / 2);
  if (number <= low || number >= high) return undefined;
  const name = `${String(number).padStart(width, '0')}-${slugify(rule.name)}.yaml`;
  const rel = dir === '.' || dir === '' ? name : `${dir}/${name}`;
  const sorts = (previous === undefined || previous < rel) && (next === undefined || rel < next);
  return sorts && !files.some((f) => f.rel === rel) ? rel : undefined;
}

function numberOf(rel: string): string | undefined {
  return /^(\d+)-/.exec(posix.basename(rel))?.[1];
}
