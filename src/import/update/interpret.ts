// The one interpreter of `import --update`: RFC 6902 operations, addressed by JSON Pointer into
// each rule file as written, become edits of the file's text at the ranges of the nodes the
// `yaml` parser found (docs/behaviour.md, "import --update"). Each operation is applied to the
// parsed document's node tree (which keeps pointers right as operations shift indices) and
// recorded as an edit of the original text: a changed scalar keeps its quoting, a flow
// collection whose members change is written again in flow style, and a block list or mapping
// gains or loses whole lines, so comments, indentation and every line no operation touches stay
// as they were. What each edit writes is settled in finish.ts, once every operation is in.
import type { Operation } from 'fast-json-patch';
import { isCollection, isMap, isScalar, isSeq, Pair, Scalar, visit, YAMLMap, type Document, type Node, type YAMLSeq } from 'yaml';
import { newNode, scalarText, valueText } from './render.js';
import { columnOf, contentEnd, type TextEdit } from './text.js';
import { WRITTEN_KEY_ORDER } from '../../semantics/written.js';
import { pointerSegments } from '../../io/json-pointer.js';

/** One file as read (without its byte-order mark) and its one parse. */
export interface SourceFile {
  text: string;
  document: Document;
  eol: '\n' | '\r\n';
}

export type Collection = YAMLMap | YAMLSeq;
export type Item = Node | Pair;

/** What the operations did to one file, for finish.ts. */
export interface FileState {
  source: SourceFile;
  /** Every node and pair of the parse: they have ranges in `source.text`. */
  original: WeakSet<object>;
  edits: TextEdit[];
  /** Block collections whose members changed, with their members as parsed. */
  touched: Map<Collection, { items: Item[]; depth: number; topLevel: boolean }>;
  /** Nodes written afresh from the tree: operations inside them edit the tree only. */
  rewritten: WeakSet<object>;
  /** Parsed list items an operation moved: their text travels with them. */
  displaced: WeakSet<object>;
  /** Parsed list items a `remove` took out: their text may reappear where an `add` puts the same value. */
  removed: Set<Node>;
  /** The mapping of a file that was empty (a new one holds only its schema comment), written at its end. */
  createdRoot?: YAMLMap;
}

export function interpretFile(source: SourceFile, operations: readonly Operation[]): FileState {
  const original = new WeakSet<object>();
  visit(source.document, { Node: (_k, node) => void original.add(node), Pair: (_k, pair) => void original.add(pair) });
  const state: FileState = { source, original, edits: [], touched: new Map(), rewritten: new WeakSet(), displaced: new WeakSet(), removed: new Set() };
  for (const operation of operations) applyOperation(state, operation);
  return state;
}

function applyOperation(state: FileState, operation: Operation): void {
  switch (operation.op) {
    case 'add':
      return addNode(state, operation.path, newNode(operation.value, lastToken(operation.path)));
    case 'replace':
      return replaceNode(state, operation.path, operation.value);
    case 'remove':
      return void takeNode(state, operation.path, 'remove');
    case 'move':
      return addNode(state, operation.path, takeNode(state, operation.from, 'move'));
    case 'copy':
      return addNode(state, operation.path, newNode(valueAt(state, operation.from), lastToken(operation.path)));
    case 'test':
      if (JSON.stringify(valueAt(state, operation.path)) !== JSON.stringify(operation.value)) throw new Error(`import --update: test failed at ${operation.path}`);
      return;
    default:
      throw new Error(`import --update: unknown operation ${(operation as { op: string }).op}`);
  }
}

interface Target {
  /** The nodes from the root down to the container. */
  chain: Node[];
  container: Collection;
  key: string;
}

function target(state: FileState, path: string): Target {
  const tokens = pointerSegments(path);
  const key = tokens.pop();
  if (key === undefined) throw new Error('import --update: an operation on the whole document');
  const doc = state.source.document;
  if (doc.contents === null) {
    // An empty file (a new one holds only its schema comment): its mapping is new.
    state.createdRoot = new YAMLMap();
    doc.contents = state.createdRoot as never;
  }
  const chain: Node[] = [doc.contents as Node];
  for (const token of tokens) chain.push(childOf(chain[chain.length - 1] as Node, token) as Node);
  const container = chain[chain.length - 1];
  if (!isMap(container) && !isSeq(container)) throw new Error(`import --update: ${path} is not inside a mapping or list`);
  return { chain, container, key };
}

function childOf(node: Node, key: string): Node | undefined {
  if (isSeq(node)) return node.items[Number(key)] as Node | undefined;
  if (isMap(node)) return node.get(key, true) as Node | undefined;
  return undefined;
}

function valueAt(state: FileState, path: string): unknown {
  const { container, key } = target(state, path);
  return (childOf(container, key) as Node | undefined)?.toJSON();
}

/**
 * How an operation at `t` shows in the text: not at all beyond the tree when it is inside a node
 * that is new or written afresh; by writing the outermost flow collection around it again; or
 * by lines of its block collection (recorded with the collection's parsed members).
 */
function textRole(state: FileState, t: Target): 'tree' | 'flow' | 'block' {
  if (t.chain.some((node) => !state.original.has(node) || state.rewritten.has(node))) return 'tree';
  const flow = t.chain.find((node) => isCollection(node) && node.flow === true);
  if (flow !== undefined) {
    rewrite(state, flow, t.chain.indexOf(flow));
    return 'flow';
  }
  if (!state.touched.has(t.container)) {
    const topLevel = t.chain.length === 2 && isSeq(t.container);
    state.touched.set(t.container, { items: [...(t.container.items as Item[])], depth: t.chain.length, topLevel });
  }
  return 'block';
}

/** Writes `node` again from the tree, at its range. */
export function rewrite(state: FileState, node: Node, depth: number): void {
  const [start = 0, end = 0] = node.range ?? [];
  const col = columnOf(state.source.text, start);
  const block = isCollection(node) && node.flow !== true;
  state.rewritten.add(node);
  // Comments before and after the node lie outside its range and stay where they are.
  const text = (): string => valueText(Object.assign(node, { comment: null, commentBefore: null }), col, block);
  state.edits.push({ start, end: contentEnd(state.source.text, end), depth, region: 'replace', text });
}

function addNode(state: FileState, path: string, node: Node): void {
  const t = target(state, path);
  if (isMap(t.container) && t.container.has(t.key)) return setNode(state, t, node);
  textRole(state, t);
  if (isSeq(t.container)) {
    const index = t.key === '-' ? t.container.items.length : Number(t.key);
    if (!(index >= 0 && index <= t.container.items.length)) throw new Error(`import --update: no index ${t.key} in ${path}`);
    t.container.items.splice(index, 0, node);
  } else {
    const pair = new Pair(new Scalar(t.key), node);
    t.container.items.splice(keyPosition(t.container, t.key), 0, pair);
  }
  if (state.original.has(node)) state.displaced.add(node);
}

function replaceNode(state: FileState, path: string, value: unknown): void {
  const t = target(state, path);
  if (childOf(t.container, t.key) === undefined) throw new Error(`import --update: nothing to replace at ${path}`);
  setNode(state, t, newNode(value, t.key));
}

/** Puts `node` where the container's member `t.key` is, in the text at that member's range. */
function setNode(state: FileState, t: Target, node: Node): void {
  const old = childOf(t.container, t.key) as Node;
  const role = state.original.has(old) && !state.rewritten.has(old) && t.chain.every((n) => state.original.has(n) && !state.rewritten.has(n)) ? 'range' : 'tree';
  if (isSeq(t.container)) t.container.items[Number(t.key)] = node;
  else t.container.set(t.key, node);
  if (role === 'tree') return;
  const [start = 0, end = 0] = old.range ?? [];
  const col = columnOf(state.source.text, start);
  const block = isCollection(old) && old.flow !== true && !t.chain.some((n) => isCollection(n) && n.flow === true);
  const text = (): string => (isScalar(node) && isScalar(old) ? scalarText(node, old) : valueText(node, col, block));
  state.rewritten.add(node);
  state.edits.push({ start, end: contentEnd(state.source.text, end), depth: t.chain.length, region: 'replace', text });
}

function takeNode(state: FileState, path: string, why: 'remove' | 'move'): Node {
  const t = target(state, path);
  const node = childOf(t.container, t.key);
  if (node === undefined) throw new Error(`import --update: nothing at ${path}`);
  const role = textRole(state, t);
  if (isSeq(t.container)) t.container.items.splice(Number(t.key), 1);
  else t.container.delete(t.key);
  if (role === 'block' && isSeq(t.container) && state.original.has(node) && why === 'remove') state.removed.add(node);
  return node;
}

/**
 * Where a new key goes in a mapping: after the keys `import` writes before it (a `ruleId`
 * under the `name`), else after the last key.
 */
function keyPosition(map: YAMLMap, key: string): number {
  const order = WRITTEN_KEY_ORDER.indexOf(key);
  if (order === -1) return map.items.length;
  let at = 0;
  map.items.forEach((pair, index) => {
    const other = WRITTEN_KEY_ORDER.indexOf(String(isScalar(pair.key) ? pair.key.value : pair.key));
    if (other !== -1 && other < order) at = index + 1;
  });
  return at === 0 && map.items.length > 0 ? map.items.length : at;
}

function lastToken(path: string): string {
  return pointerSegments(path).pop() ?? '';
}
