// Text edits that make one declared rule say what its live rule says, touching only what
// differs: a changed scalar keeps its quoting, a changed `conditions` edits the groups and
// leaves that changed, and anything the edits cannot express exactly is replaced whole.
// Fields botrules does not know count here (the files hold what the service stores,
// docs/behaviour.md, "Unknown fields"): a leaf whose unknown fields differ is written again,
// and a rule or tree whose own unknown fields differ is replaced whole.
import { isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { canonicalRule, exactGroupKey, exactLeafKey, sameExactConditions, unknownJson } from '../../semantics/canonical.js';
import type { Group, GroupOperator, Leaf, LiveRule } from '../../semantics/model.js';
import { normaliseLeaf } from '../../semantics/normalise.js';
import type { WrittenLeaf } from '../../semantics/written.js';
import { renderConditionsValue, renderFlowList, renderGroupItem, renderLeaf, renderScalar } from './render.js';
import { columnOf, contentEnd, lineEnd, lineStart, type TextEdit } from './text.js';

/**
 * The edits that turn the rule written at `item` into `live` ([] when they already agree), or
 * undefined when the rule is written in a shape these edits cannot change exactly.
 */
export function ruleEdits(text: string, item: YAMLMap, written: LiveRuleLike, live: LiveRule): TextEdit[] | undefined {
  const before = canonicalRule(written);
  const after = canonicalRule(live);
  if (unknownJson(written, 'rule') !== unknownJson(live, 'rule')) return undefined;
  const edits: TextEdit[] = [];
  const keyCol = columnOf(text, (item.items[0]?.key as Node | undefined)?.range?.[0] ?? 0);
  const afterName = lineEnd(text, contentEnd(text, valueEnd(pairOf(item, 'name')) ?? 0) - 1);
  if (written.ruleId === undefined) edits.push({ start: afterName, end: afterName, text: `${' '.repeat(keyCol)}ruleId: ${renderScalar(live.ruleId)}\n` });
  for (const field of ['name', 'description', 'status'] as const) {
    if (before[field] === after[field]) continue;
    const pair = pairOf(item, field);
    if (pair && isScalar(pair.value)) edits.push(replaceNode(text, pair.value, renderScalar(after[field], pair.value)));
    else if (pair) return undefined;
    else edits.push({ start: afterName, end: afterName, text: `${' '.repeat(keyCol)}${field}: ${renderScalar(after[field])}\n` });
  }
  if (JSON.stringify(before.actions) !== JSON.stringify(after.actions)) {
    const value = pairOf(item, 'actions')?.value;
    if (!isSeq(value)) return undefined;
    edits.push(value.flow === true ? replaceNode(text, value, renderFlowList(live.actions)) : replaceNode(text, value, blockList(text, value, live.actions)));
  }
  if (!sameExactConditions(written.conditions, live.conditions)) {
    const pair = pairOf(item, 'conditions');
    if (!pair || !isMap(pair.value)) return undefined;
    const keyColumn = columnOf(text, (pair.key as Node).range?.[0] ?? 0);
    edits.push(...(conditionEdits(text, pair.value, live) ?? [replaceNode(text, pair.value, renderConditionsValue(live.conditions, keyColumn))]));
  }
  return edits;
}

/** What ruleEdits needs of the written rule: its normalised fields and whether it has a ruleId. */
export type LiveRuleLike = Omit<LiveRule, 'priority' | 'ruleId'> & { ruleId?: string };

/** Group- and leaf-level edits, or undefined when only replacing `conditions` whole is exact. */
function conditionEdits(text: string, node: YAMLMap, live: LiveRule): TextEdit[] | undefined {
  const groupsNode = node.get('children', true);
  const operator = node.get('operator', true);
  if (!isSeq(groupsNode) || groupsNode.flow === true || !isScalar(operator)) return undefined;
  if (unknownJson(node.toJSON() as object, 'tree') !== unknownJson(live.conditions, 'tree')) return undefined;
  const edits: TextEdit[] = [];
  if (operator.value !== live.conditions.operator) edits.push(replaceNode(text, operator, renderScalar(live.conditions.operator, operator)));
  const written = groupsNode.items.map((item) => (isMap(item) ? writtenGroup(item) : undefined));
  if (written.some((g) => g === undefined)) return undefined;
  const unmatchedLive = [...live.conditions.children];
  const unmatchedWritten: number[] = [];
  written.forEach((group, index) => {
    const at = unmatchedLive.findIndex((g) => exactGroupKey(g) === exactGroupKey(group as Group));
    if (at === -1) unmatchedWritten.push(index);
    else unmatchedLive.splice(at, 1);
  });
  const paired = Math.min(unmatchedWritten.length, unmatchedLive.length);
  for (let i = 0; i < paired; i += 1) {
    const groupEdits = groupEditsFor(text, groupsNode.items[unmatchedWritten[i] as number] as YAMLMap, unmatchedLive[i] as Group);
    if (groupEdits === undefined) return undefined;
    edits.push(...groupEdits);
  }
  for (const index of unmatchedWritten.slice(paired)) edits.push(removeItem(text, groupsNode.items[index] as Node));
  const extra = unmatchedLive.slice(paired);
  if (extra.length > 0) edits.push(appendItems(text, groupsNode, extra.map((group) => renderGroupItem(group, itemDashCol(text, groupsNode)))));
  return edits;
}

function groupEditsFor(text: string, node: YAMLMap, live: Group): TextEdit[] | undefined {
  const leavesNode = node.get('children', true);
  const operator = node.get('operator', true);
  if (!isSeq(leavesNode) || leavesNode.flow === true || !isScalar(operator) || live.children.length === 0) return undefined;
  if (unknownJson(node.toJSON() as object, 'tree') !== unknownJson(live, 'tree')) return undefined;
  const edits: TextEdit[] = [];
  if (operator.value !== live.operator) edits.push(replaceNode(text, operator, renderScalar(live.operator, operator)));
  const missing = [...live.children];
  for (const item of leavesNode.items) {
    const leaf = writtenLeaf(item as Node);
    const at = leaf === undefined ? -1 : missing.findIndex((l) => exactLeafKey(l) === exactLeafKey(leaf));
    if (at === -1) edits.push(removeItem(text, item as Node));
    else missing.splice(at, 1);
  }
  if (missing.length > 0) edits.push(appendItems(text, leavesNode, missing.map((leaf) => `${' '.repeat(itemDashCol(text, leavesNode))}- ${renderLeaf(leaf)}`)));
  return edits;
}

function writtenGroup(node: YAMLMap): Group | undefined {
  const leaves = node.get('children', true);
  if (!isSeq(leaves)) return undefined;
  const children = leaves.items.map((item) => writtenLeaf(item as Node));
  if (children.some((l) => l === undefined)) return undefined;
  const group = node.toJSON() as Record<string, unknown>;
  return { ...group, operator: group.operator as GroupOperator, children: children as Leaf[] };
}

function writtenLeaf(node: Node): Leaf | undefined {
  if (!isMap(node)) return undefined;
  return normaliseLeaf(node.toJSON() as WrittenLeaf);
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => isScalar(pair.key) && (pair.key as Scalar).value === key);
}

function valueEnd(pair: Pair | undefined): number | undefined {
  return (pair?.value as Node | undefined)?.range?.[1];
}

function replaceNode(text: string, node: Node, replacement: string): TextEdit {
  const [start = 0, end = 0] = node.range ?? [];
  return { start, end: contentEnd(text, end), text: replacement };
}

/** Removes a block list item: its lines, from its `-` to the end of its content. */
function removeItem(text: string, node: Node): TextEdit {
  const [start = 0, end = 0] = node.range ?? [];
  return { start: lineStart(text, start), end: lineEnd(text, contentEnd(text, end) - 1), text: '' };
}

/** Inserts whole lines after the last item of a block list. */
function appendItems(text: string, seq: YAMLSeq, lines: readonly string[]): TextEdit {
  const last = seq.items[seq.items.length - 1] as Node;
  const at = lineEnd(text, contentEnd(text, last.range?.[1] ?? 0) - 1);
  const prefix = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return { start: at, end: at, text: prefix + lines.map((line) => `${line}\n`).join('') };
}

function itemDashCol(text: string, seq: YAMLSeq): number {
  const first = seq.items[0] as Node;
  const start = first.range?.[0] ?? 0;
  const lineText = text.slice(lineStart(text, start), start);
  return lineStart(text, start) + lineText.lastIndexOf('-') - lineStart(text, start);
}

function blockList(text: string, seq: YAMLSeq, values: readonly string[]): string {
  const col = itemDashCol(text, seq);
  return values.map((value, index) => `${index === 0 ? '' : ' '.repeat(col)}- ${renderScalar(value)}`).join('\n');
}
