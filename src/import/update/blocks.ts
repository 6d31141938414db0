// A rule file as `import --update` rearranges it: the text before the first rule (file
// header and `rules:`), one block per rule, and the text after the last. A rule's block is its
// list item plus the comments that travel with it: comment and blank lines directly above
// its `-` (at most as deep as the `-`) and comment lines below it that are indented deeper.
import { isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq } from 'yaml';
import { parseYamlDocument } from '../../located/yaml-source.js';
import { columnOf, contentEnd, indentOf, isBlankOrComment, lineEnd, lineStart, linesOf } from './text.js';

export interface RuleBlock {
  /** The block's text, ending with a newline. */
  text: string;
  /** Column of the item's `-`. */
  dashCol: number;
}

export interface SegmentedFile {
  header: string;
  blocks: RuleBlock[];
  trailer: string;
  /** Column of the `-` of the file's rules (of a rule inserted into an empty list: 2). */
  dashCol: number;
  /** Each rule as parsed (JSON), in block order. */
  values: unknown[];
}

/** The `rules` list of a parsed rule file, when it is a block sequence of block mappings. */
export function blockRulesList(text: string): { seq: YAMLSeq; items: YAMLMap[]; keyEnd: number; json: () => Record<string, unknown> } | undefined {
  const doc = parseYamlDocument(text).document;
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'rules');
  const seq = pair?.value;
  if (!pair || !isScalar(pair.key) || !isSeq(seq) || seq.flow === true) return undefined;
  const items: YAMLMap[] = [];
  for (const item of seq.items as unknown[]) {
    if (!isMap(item) || item.flow === true) return undefined;
    items.push(item);
  }
  return { seq, items, keyEnd: lineEnd(text, pair.key.range?.[1] ?? 0), json: () => doc.toJS() as Record<string, unknown> };
}

/** Splits a rule file into header, rule blocks and trailer; undefined for a layout it cannot split. */
export function segmentFile(text: string): SegmentedFile | undefined {
  const list = blockRulesList(text);
  if (list === undefined || list.items.length === 0) return undefined;
  const dashLines = list.items.map((item) => dashLineOf(text, item));
  if (dashLines.some((d) => d === undefined)) return undefined;
  const dashes = dashLines as { start: number; col: number }[];
  const ends = list.items.map((item) => lineEnd(text, contentEnd(text, item.range?.[1] ?? 0) - 1));

  const starts: number[] = [];
  const finishes: number[] = [];
  dashes.forEach((dash, index) => {
    const gapStart = index === 0 ? list.keyEnd : (ends[index - 1] as number);
    starts.push(index === 0 ? leadingStartOfFirst(text, gapStart, dash.start) : leadingStart(text, gapStart, dash));
  });
  dashes.forEach((dash, index) => {
    const next = starts[index + 1];
    finishes.push(next ?? trailingEnd(text, ends[index] as number, dash.col));
  });
  const first = starts[0] as number;
  const last = finishes[finishes.length - 1] as number;
  return {
    header: text.slice(0, first),
    blocks: dashes.map((dash, index) => ({ text: withNewline(text.slice(starts[index], finishes[index])), dashCol: dash.col })),
    trailer: text.slice(last),
    dashCol: (dashes[0] as { col: number }).col,
    values: list.items.map((item) => item.toJSON() as unknown),
  };
}

/** Joins a segmented file back into text. */
export function joinFile(file: SegmentedFile): string {
  return file.header + file.blocks.map((block) => block.text).join('') + file.trailer;
}

function dashLineOf(text: string, item: YAMLMap): { start: number; col: number } | undefined {
  const at = item.range?.[0];
  if (at === undefined) return undefined;
  const start = lineStart(text, at);
  const dash = text.slice(start, at).lastIndexOf('-');
  if (dash === -1) return undefined;
  return { start, col: columnOf(text, start + dash) };
}

/** Above the first rule, every comment and blank line after `rules:` belongs to it. */
function leadingStartOfFirst(text: string, gapStart: number, dashStart: number): number {
  return Math.min(gapStart, dashStart);
}

/** Comment and blank lines directly above the `-`, no deeper than it, belong to the rule. */
function leadingStart(text: string, gapStart: number, dash: { start: number; col: number }): number {
  const gap = linesOf(text.slice(gapStart, dash.start));
  let start = dash.start;
  for (let i = gap.length - 1; i >= 0; i -= 1) {
    const line = gap[i] as string;
    const leads = line.trim() === '' || (isBlankOrComment(line) && indentOf(line) <= dash.col);
    if (!leads) break;
    start -= line.length;
  }
  return start;
}

/** Comment lines right below the last rule and deeper than its `-` still belong to it. */
function trailingEnd(text: string, end: number, dashCol: number): number {
  let at = end;
  for (const line of linesOf(text.slice(end))) {
    if (line.trim() === '' || !isBlankOrComment(line) || indentOf(line) <= dashCol) break;
    at += line.length;
  }
  return at;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
