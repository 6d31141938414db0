// Text for the nodes `import --update` writes, from the `yaml` package's node API: a new node is
// made with `createNode` in the style `import` writes (leaves and action lists on one line,
// rule-file.ts) and stringified by the package, which also picks a quoted form wherever a plain
// scalar would read back as something else. Nothing is re-parsed to check.
import { Document, isCollection, Pair, Scalar, visit, YAMLMap, YAMLSeq, type Node } from 'yaml';
import { withImportStyle, yamlText } from '../rule-file.js';
import { reindent } from './text.js';

const maker = new Document();

/** A new node for the JSON `value`, styled as `import` writes it under `key`. */
export function newNode(value: unknown, key?: unknown): Node {
  return withImportStyle(maker.createNode(value) as Node, key);
}

/** The node's text at column 0, without a final newline. */
function nodeText(node: Node): string {
  const doc = new Document();
  doc.contents = quotedWhereNeeded(node);
  return yamlText(doc).replace(/\n$/, '');
}

/** A scalar for `node`'s value in the quoting of `like` (plain, single or double), on one line. */
export function scalarText(node: Scalar, like: Scalar): string {
  const quoted = [Scalar.PLAIN, Scalar.QUOTE_SINGLE, Scalar.QUOTE_DOUBLE] as unknown[];
  if (typeof node.value === 'string' && quoted.includes(like.type)) node.type = like.type;
  return nodeText(node);
}

/** A block list item (`- …`) whose `-` stands at `dashCol`, ending with a newline. */
export function itemText(node: Node, dashCol: number): string {
  const seq = new YAMLSeq();
  seq.items.push(node);
  return reindent(`${nodeText(seq)}\n`, dashCol);
}

/** A block mapping entry (`key: …`) whose key stands at `keyCol`, ending with a newline. */
export function pairText(pair: Pair, keyCol: number): string {
  const map = new YAMLMap();
  map.items.push(pair);
  return reindent(`${nodeText(map)}\n`, keyCol);
}

/**
 * The node as the text of a value that starts at column `col`: a block collection on the
 * lines below its first (indented to `col`), anything else on one line (a collection then in
 * flow style, as a block one cannot start there).
 */
export function valueText(node: Node, col: number, block: boolean): string {
  if (isCollection(node) && !block) node.flow = true;
  const text = nodeText(node);
  const [first = '', ...rest] = text.split('\n');
  return [first, ...rest.map((line) => (line === '' ? line : ' '.repeat(col) + line))].join('\n');
}

/**
 * Strings a one-line plain or single-quoted scalar cannot hold as they are (control and line
 * separator characters) are double-quoted, where the package writes them as escapes.
 */
function quotedWhereNeeded(node: Node): Node {
  visit(node, {
    Scalar(_, scalar) {
      if (typeof scalar.value === 'string' && CONTROL_CHARACTER.test(scalar.value)) scalar.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return node;
}

const CONTROL_CHARACTER = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]`);
