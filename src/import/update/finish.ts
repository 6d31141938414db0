// The second half of the interpreter (interpret.ts): once every file's operations are in, each
// block collection whose members changed loses the lines of the members that left it and gains
// lines for the members that arrived, after the member that precedes them; then each file's
// edits are applied. A list item carries its own lines; an item of a top-level list (a rule
// under `rules:`) also carries the comment and blank lines directly above it, no deeper than its
// `-`, and the deeper comment lines below it. A moved item is those lines, edited by the
// operations inside it; an `add` whose value equals an item a `remove` took out (a rule moved to
// another file is a remove there and an add here) writes that item's lines too, so a rule's
// comments travel with it.
import { isScalar, isSeq, type Node, type Pair } from 'yaml';
import { sortedJson } from '../../plan/compare.js';
import { itemText, pairText } from './render.js';
import { isBlankOrComment } from '../../io/yaml-source.js';
import { columnOf, editedSlice, indentOf, lineAfter, lineStart, linesOf, reindent, withLineEnding, type TextEdit } from './text.js';
import { rewrite, type Collection, type FileState, type Item } from './interpret.js';

interface Extent {
  start: number;
  end: number;
  /** Column of the item's `-` (of a mapping entry: of its key). */
  col: number;
  /** A mapping entry that shares its line with the `-` of the list item holding the mapping. */
  inline: boolean;
}

interface Carried {
  state: FileState;
  extent: Extent;
  edit: TextEdit;
}

/** The new text of each file. */
export function finishFiles(states: ReadonlyMap<string, FileState>): Map<string, string> {
  const pool: Pool = { byValue: new Map(), moved: new WeakMap() };
  // Every file's lines first: a rule arriving in one file may be lines another file removes.
  for (const state of states.values()) collectionEdits(state, pool);
  for (const state of states.values()) {
    if (state.createdRoot !== undefined) state.edits.push(createdRootEdit(state, pool));
    const eol = state.source.eol;
    for (const edit of state.edits) {
      const text = edit.text;
      if (typeof text === 'function') edit.text = () => withLineEnding(text(), eol);
    }
  }
  const texts = new Map<string, string>();
  for (const [key, state] of states) texts.set(key, editedSlice(state.source.text, state.edits, 0, state.source.text.length));
  return texts;
}

/** The removals and insertions of every touched block collection of the file. */
function collectionEdits(state: FileState, pool: Pool): void {
  for (const [collection, { items, depth, topLevel }] of state.touched) {
    const extents = isSeq(collection) ? seqExtents(state.source.text, items as Node[], topLevel) : pairExtents(state.source.text, items as Pair[]);
    const parsed = new Set<unknown>(items);
    const stays = new Set<unknown>(collection.items.filter((item) => parsed.has(item) && !state.displaced.has(item as object)));
    const leaves = items.filter((item) => !stays.has(item));
    // An entry on the line of a list item's `-` cannot leave by lines: the mapping is written again.
    if (leaves.some((item) => extents.get(item)?.inline === true)) {
      rewrite(state, collection, depth);
      continue;
    }
    for (const item of leaves) {
      const extent = extents.get(item) as Extent;
      const edit: TextEdit = { start: extent.start, end: extent.end, text: '', region: 'remove', depth };
      state.edits.push(edit);
      if (state.removed.has(item as Node)) addToPool(pool.byValue, sortedJson((item as Node).toJSON()), { state, extent, edit });
      if (state.displaced.has(item)) pool.moved.set(item, { state, extent, edit });
    }
    insertArrivals(state, collection, stays, extents, depth, pool);
  }
}

/** Lines that travel: items a `remove` took out, by value, and items a `move` moved, by node. */
interface Pool {
  byValue: Map<string, Carried[]>;
  moved: WeakMap<object, Carried>;
}

function insertArrivals(state: FileState, collection: Collection, stays: ReadonlySet<unknown>, extents: ReadonlyMap<Item, Extent>, depth: number, pool: Pool): void {
  const text = state.source.text;
  const parsed = [...extents.values()];
  const col = parsed[0]?.col ?? 0;
  let anchor: number | undefined;
  let pending: Item[] = [];
  const insert = (at: number, items: Item[]): void => {
    for (const item of items) state.edits.push({ start: at, end: at, depth, text: () => arrivalText(item, isSeq(collection), col, pool) });
  };
  for (const item of collection.items as Item[]) {
    if (!stays.has(item)) {
      if (anchor === undefined) pending.push(item);
      else insert(anchor, [item]);
      continue;
    }
    const extent = extents.get(item) as Extent;
    if (anchor === undefined && !extent.inline) insert(extent.start, pending);
    anchor = extent.end;
    if (pending.length > 0 && extent.inline) insert(anchor, pending);
    pending = [];
  }
  if (pending.length > 0) insert(anchor ?? parsed[0]?.start ?? text.length, pending);
}

/** The lines an arriving item is written as, in column `col`. */
function arrivalText(item: Item, listItem: boolean, col: number, pool: Pool): string {
  if (!listItem) return pairText(item as Pair, col);
  const node = item as Node;
  const carried = pool.moved.get(node) ?? pool.byValue.get(sortedJson(node.toJSON()))?.shift();
  if (carried === undefined) return itemText(node, col);
  const { state, extent, edit } = carried;
  const lines = withLineEnding(editedSlice(state.source.text, state.edits, extent.start, extent.end, edit), '\n');
  return reindent(lines.endsWith('\n') ? lines : `${lines}\n`, col - extent.col);
}

function addToPool(pool: Map<string, Carried[]>, key: string, carried: Carried): void {
  const queue = pool.get(key);
  if (queue === undefined) pool.set(key, [carried]);
  else queue.push(carried);
}

/** The mapping of a file that was empty, at its end; a block list of it item by item (carried items keep their lines). */
function createdRootEdit(state: FileState, pool: Pool): TextEdit {
  const root = state.createdRoot as NonNullable<FileState['createdRoot']>;
  const { text } = state.source;
  const rootText = (): string =>
    root.items
      .map((pair) => {
        const value = pair.value;
        if (!isSeq(value) || value.flow === true || value.items.length === 0) return pairText(pair, 0);
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        return `${key}:\n${value.items.map((item) => arrivalText(item as Node, true, 2, pool)).join('')}`;
      })
      .join('');
  return { start: text.length, end: text.length, depth: 0, text: rootText };
}

/** A list's items as parsed, each with its lines (see the file's head for which lines those are). */
function seqExtents(text: string, items: readonly Node[], topLevel: boolean): Map<Item, Extent> {
  const dashes = items.map((item) => {
    const at = item.range?.[0] ?? 0;
    const start = lineStart(text, at);
    return { start, col: columnOf(text, start + Math.max(0, text.slice(start, at).lastIndexOf('-'))) };
  });
  const ends = items.map((item) => lineAfter(text, item.range?.[1] ?? 0));
  const starts = dashes.map((dash, i) => (!topLevel ? dash.start : leadingStart(text, i === 0 ? 0 : (ends[i - 1] as number), dash, i === 0)));
  const out = new Map<Item, Extent>();
  items.forEach((item, i) => {
    const dash = dashes[i] as { start: number; col: number };
    const end = !topLevel ? (ends[i] as number) : (starts[i + 1] ?? trailingEnd(text, ends[i] as number, dash.col));
    out.set(item, { start: starts[i] as number, end, col: dash.col, inline: false });
  });
  return out;
}

/** Comment and blank lines directly above the `-` (above the first item: all of them; else no deeper than it). */
function leadingStart(text: string, gapStart: number, dash: { start: number; col: number }, first: boolean): number {
  const gap = linesOf(text.slice(gapStart, dash.start));
  let start = dash.start;
  for (let i = gap.length - 1; i >= 0; i -= 1) {
    const line = gap[i] as string;
    if (!(line.trim() === '' || (isBlankOrComment(line) && (first || indentOf(line) <= dash.col)))) break;
    start -= line.length;
  }
  return start;
}

/** Comment lines right below the last item and deeper than its `-` still belong to it. */
function trailingEnd(text: string, end: number, dashCol: number): number {
  let at = end;
  for (const line of linesOf(text.slice(end))) {
    if (line.trim() === '' || !isBlankOrComment(line) || indentOf(line) <= dashCol) break;
    at += line.length;
  }
  return at;
}

function pairExtents(text: string, pairs: readonly Pair[]): Map<Item, Extent> {
  const out = new Map<Item, Extent>();
  for (const pair of pairs) {
    const key = pair.key as Node;
    const at = key.range?.[0] ?? 0;
    const start = lineStart(text, at);
    const end = lineAfter(text, Math.max(key.range?.[1] ?? 0, (pair.value as Node | null)?.range?.[1] ?? 0));
    out.set(pair, { start, end, col: at - start, inline: text.slice(start, at).trim() !== '' });
  }
  return out;
}
