// `botrules import --update`: rewrite the existing rule files of an app in place so they
// declare its live rules, changing only what differs (docs/behaviour.md, "import --update").
// Pure: it takes the files' text and the live rules and returns the new text of each file.
import { UserError } from '../../errors.js';
import { changedFields } from '../../semantics/canonical.js';
import { matchRules } from '../../semantics/match.js';
import { writtenRule } from '../../semantics/written.js';
import type { DeclaredRule, LiveRule } from '../../semantics/model.js';
import { arrange, type Placement, type WorkFile } from './arrange.js';
import { blockRulesList, segmentFile } from './blocks.js';
import { ruleEdits } from './edits.js';
import { renderRuleBlock } from './render.js';
import { newFileStyle, styledText, styleOf, workingText, type FileStyle } from './line-endings.js';
import { filePatch, type Operation, type PatchSide } from './patch.js';
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
  /** The same change as RFC 6902 operations on the parsed file (patch.ts). */
  operations: Operation[];
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
  const { matched, gone } = liveCounterparts(input.declared, input.live);
  const edited: UpdateResult['edited'] = [];
  const styles = new Map(input.files.map((file) => [file.rel, styleOf(file.text)]));
  const before = new Map<string, PatchSide>();
  // Each rule as the update writes it (JSON), for the file's JSON Patch.
  const written = new Map(input.live.map((rule) => [rule.ruleId, writtenRule(rule) as unknown]));
  const work: WorkFile[] = input.files.map((original) => {
    const file = { ...original, text: workingText(original.text, styles.get(original.rel) as FileStyle) };
    const rules = input.declared.filter((rule) => rule.source.file === file.shown);
    const edit = editFile(file, rules, matched, edited);
    const segmented = segmentFile(edit.text);
    if (segmented === undefined) throw unsupportedLayout(file.shown);
    const ids = rules.map((rule) => matched.get(rule)?.ruleId ?? '');
    before.set(file.rel, { document: edit.before, ruleIds: ids });
    ids.forEach((id, index) => id !== '' && written.set(id, segmented.values[index]));
    const blocks = segmented.blocks.map((block, index) => ({ ...block, ruleId: ids[index] ?? '' }));
    return { rel: file.rel, header: segmented.header, trailer: segmented.trailer, dashCol: segmented.dashCol, blocks: blocks.filter((b) => b.ruleId !== ''), originalCount: rules.length };
  });
  const placements = arrange(work, input.live, input.schema);
  const fresh = newFileStyle([...styles.values()]);
  const changes = fileChanges(input.files, work, (rel) => styles.get(rel) ?? fresh, (file) => patchOf(file, before, written));
  return { gone, edited, placements, changes };
}

/** The file's change as JSON Patch, from the values parsed once (the file's rest is never edited). */
function patchOf(file: WorkFile, before: ReadonlyMap<string, PatchSide>, written: ReadonlyMap<string, unknown>): Operation[] {
  const was = file.originalCount > 0 ? before.get(file.rel) : undefined;
  const { rules: _rules, ...rest } = was?.document ?? {};
  const ruleIds = file.blocks.map((b) => b.ruleId);
  const document = file.blocks.length === 0 ? undefined : { ...rest, rules: ruleIds.map((id) => written.get(id)) };
  return filePatch(was ?? { document: undefined, ruleIds: [] }, { document, ruleIds });
}

/**
 * Matches as the planner does (src/semantics/match.ts), except that a pinned ruleId no live
 * rule has means the rule is gone, like a name nothing matches.
 */
export function liveCounterparts(declared: readonly DeclaredRule[], live: readonly LiveRule[]): { matched: Map<DeclaredRule, LiveRule>; gone: DeclaredRule[] } {
  const result = matchRules(declared, live, { missingRuleId: 'unmatched' });
  const [problem, ...more] = result.problems;
  if (problem !== undefined) {
    throw new UserError(`${problem.file}:${problem.line}:${problem.col}: ${problem.message}`, [
      ...more.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`),
      'Then run import --update again.',
    ]);
  }
  const matched = new Map(result.matches.map((match) => [match.declared, match.live]));
  return { matched, gone: declared.filter((rule) => !matched.has(rule)) };
}

/** The file's text with every matched rule's fields edited to the live values. */
function editFile(file: RuleFileText, rules: readonly DeclaredRule[], matched: ReadonlyMap<DeclaredRule, LiveRule>, edited: UpdateResult['edited']): { text: string; before: Record<string, unknown> } {
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
  return { text: applyEdits(file.text, edits), before: list.json() };
}

/** Replaces a rule written in a shape the edits cannot change exactly (its comments above stay). */
function replaceWhole(text: string, range: readonly number[], live: LiveRule): TextEdit {
  const keyCol = columnOf(text, range[0] ?? 0);
  const fresh = renderRuleBlock(live, keyCol - 2).slice(keyCol).replace(/\n$/, '');
  return { start: range[0] ?? 0, end: contentEnd(text, range[1] ?? 0), text: fresh };
}

/** The fields the update changed; "fields botrules does not know" when only those differ. */
function changedFieldNames(rule: DeclaredRule, live: LiveRule): string[] {
  const fields = [...(rule.ruleId === undefined ? ['ruleId'] : []), ...changedFields(live, rule)];
  return fields.length > 0 ? fields : ['fields botrules does not know'];
}

function fileChanges(files: readonly RuleFileText[], work: readonly WorkFile[], styleFor: (rel: string) => FileStyle, patchOf: (file: WorkFile) => Operation[]): FileChange[] {
  const before = new Map(files.map((file) => [file.rel, file.text]));
  const changes: FileChange[] = [];
  for (const file of work) {
    const old = file.originalCount > 0 ? before.get(file.rel) : undefined;
    const joined = file.header + file.blocks.map((b) => b.text).join('') + file.trailer;
    const after = file.blocks.length === 0 ? undefined : styledText(joined, styleFor(file.rel));
    if (old !== after) changes.push({ rel: file.rel, before: old, after, operations: patchOf(file) });
  }
  return changes;
}

export function unsupportedLayout(shown: string): UserError {
  return new UserError(`${shown}: import --update edits rule files whose rules are a block list of block mappings (rules:\\n  - name: …)`, [
    'Rewrite this file in that layout, or replace the files with: botrules import --force',
  ]);
}
