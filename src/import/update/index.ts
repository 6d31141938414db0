// `botrules import --update`: rewrite the existing rule files of an app in place so they
// declare its live rules, changing only what differs (docs/behaviour.md, "import --update").
// Pure: it takes the files' text and the live rules and returns the new text of each file.
import { UserError } from '../../errors.js';
import { canonicalRule } from '../../plan/canonical.js';
import type { DeclaredRule, LiveRule } from '../../rules/model.js';
import { arrange, type Placement, type WorkFile } from './arrange.js';
import { blockRulesList, segmentFile } from './blocks.js';
import { ruleEdits } from './edits.js';
import { renderRuleBlock } from './render.js';
import { applyEdits, columnOf, contentEnd, type TextEdit } from './text.js';

export interface RuleFileText {
  /** Path below the rules directory with "/" separators (files are read in this order). */
  rel: string;
  /** As messages show it. */
  shown: string;
  text: string;
}

export interface UpdateInput {
  files: readonly RuleFileText[];
  /** The declared rules, in declared order, as the loader returned them (source.file = shown). */
  declared: readonly DeclaredRule[];
  live: readonly LiveRule[];
  /** The `$schema` a file the update creates names for editors. */
  schema: string;
}

export interface FileChange {
  rel: string;
  /** undefined for a file the update creates. */
  before: string | undefined;
  /** undefined for a file the update removes (no rule left in it). */
  after: string | undefined;
}

export interface UpdateResult {
  /** Declared rules that no longer exist live; the update removes them (with their comments). */
  gone: DeclaredRule[];
  /** Declared rules whose fields the update changed, with the fields. */
  edited: { rule: LiveRule; fields: string[] }[];
  placements: Placement[];
  changes: FileChange[];
}

export function updateRuleFiles(input: UpdateInput): UpdateResult {
  const { matched, gone } = matchDeclared(input.declared, input.live);
  const edited: UpdateResult['edited'] = [];
  const work: WorkFile[] = input.files.map((file) => {
    const rules = input.declared.filter((rule) => rule.source.file === file.shown);
    const edit = editFile(file, rules, matched, edited);
    const segmented = segmentFile(edit);
    if (segmented === undefined) throw unsupportedLayout(file.shown);
    const ids = rules.map((rule) => matched.get(rule)?.ruleId);
    const blocks = segmented.blocks.map((block, index) => ({ ...block, ruleId: ids[index] ?? '' }));
    return { rel: file.rel, header: segmented.header, trailer: segmented.trailer, dashCol: segmented.dashCol, blocks: blocks.filter((b) => b.ruleId !== ''), originalCount: rules.length };
  });
  const placements = arrange(work, input.live, input.schema);
  return { gone, edited, placements, changes: fileChanges(input.files, work) };
}

/** Matches like the planner: by ruleId when written, else by name; anything else is gone. */
export function matchDeclared(declared: readonly DeclaredRule[], live: readonly LiveRule[]): { matched: Map<DeclaredRule, LiveRule>; gone: DeclaredRule[] } {
  const byId = new Map(live.map((rule) => [rule.ruleId, rule]));
  const byName = new Map<string, LiveRule[]>();
  for (const rule of live) byName.set(rule.name, [...(byName.get(rule.name) ?? []), rule]);
  const matched = new Map<DeclaredRule, LiveRule>();
  const claimed = new Set<string>();
  const gone: DeclaredRule[] = [];
  for (const rule of declared) {
    const candidates = rule.ruleId !== undefined ? [byId.get(rule.ruleId)].filter((r) => r !== undefined) : (byName.get(rule.name) ?? []);
    if (candidates.length > 1) {
      throw new UserError(`${where(rule)}: rule "${rule.name}" matches ${candidates.length} live rules of that name`, [
        'Pin the one you mean with its ruleId, or rename the others in the console, then run import --update again.',
      ]);
    }
    const found = candidates[0];
    if (found === undefined) gone.push(rule);
    else if (claimed.has(found.ruleId)) throw new UserError(`${where(rule)}: rule "${rule.name}" declares the same live rule as an earlier rule`);
    else {
      claimed.add(found.ruleId);
      matched.set(rule, found);
    }
  }
  return { matched, gone };
}

/** The file's text with every matched rule's fields edited to the live values. */
function editFile(file: RuleFileText, rules: readonly DeclaredRule[], matched: ReadonlyMap<DeclaredRule, LiveRule>, edited: UpdateResult['edited']): string {
  const list = blockRulesList(file.text);
  if (list === undefined || list.items.length !== rules.length) throw unsupportedLayout(file.shown);
  const edits: TextEdit[] = [];
  rules.forEach((rule, index) => {
    const live = matched.get(rule);
    const item = list.items[index];
    if (live === undefined || item === undefined) return;
    const ruleChanges = ruleEdits(file.text, item, rule, live);
    if (ruleChanges === undefined) edits.push(replaceWhole(file.text, item.range ?? [0, 0, 0], live));
    else edits.push(...ruleChanges);
    if (ruleChanges === undefined || ruleChanges.length > 0) edited.push({ rule: live, fields: changedFieldNames(rule, live) });
  });
  return applyEdits(file.text, edits);
}

/** Replaces a rule written in a shape the edits cannot change exactly (its comments above stay). */
function replaceWhole(text: string, range: readonly number[], live: LiveRule): TextEdit {
  const keyCol = columnOf(text, range[0] ?? 0);
  const fresh = renderRuleBlock(live, keyCol - 2).slice(keyCol).replace(/\n$/, '');
  return { start: range[0] ?? 0, end: contentEnd(text, range[1] ?? 0), text: fresh };
}

function changedFieldNames(rule: DeclaredRule, live: LiveRule): string[] {
  const fields: string[] = [];
  if (rule.ruleId === undefined) fields.push('ruleId');
  for (const field of ['name', 'description', 'status', 'actions', 'conditions'] as const) {
    if (JSON.stringify(canonical(rule)[field]) !== JSON.stringify(canonical(live)[field])) fields.push(field);
  }
  return fields;
}

function canonical(rule: DeclaredRule | LiveRule): ReturnType<typeof canonicalRule> {
  return canonicalRule(rule);
}

function fileChanges(files: readonly RuleFileText[], work: readonly WorkFile[]): FileChange[] {
  const before = new Map(files.map((file) => [file.rel, file.text]));
  const changes: FileChange[] = [];
  for (const file of work) {
    const old = file.originalCount > 0 ? before.get(file.rel) : undefined;
    const after = file.blocks.length === 0 ? undefined : file.header + file.blocks.map((b) => b.text).join('') + file.trailer;
    if (old !== after) changes.push({ rel: file.rel, before: old, after });
  }
  return changes;
}

function where(rule: DeclaredRule): string {
  return `${rule.source.file}:${rule.source.line}:${rule.source.col}`;
}

export function unsupportedLayout(shown: string): UserError {
  return new UserError(`${shown}: import --update edits rule files whose rules are a block list of block mappings (rules:\\n  - name: …)`, [
    'Rewrite this file in that layout, or replace the files with: botrules import --force',
  ]);
}
