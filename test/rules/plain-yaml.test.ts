// The plain-subset parser against the `yaml` package, on generated documents of every shape
// the subset has (block and flow collections, compact lists, comments, quoting styles, odd
// indentation) and on tricky scalars that are often not plain strings at all. Whenever the
// fast parser accepts a text, `yaml` must read it without error, to the same value, with
// every node starting at the same offset. Mutated copies probe the edges of the subset.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { Schema, isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { parsePlainYaml } from '../../src/rules/plain-yaml.js';
import { NON_STRING_PLAIN } from '../../src/rules/yaml-scanner.js';
import { mutate, syntaxMutation } from './mutations.js';

type Value = string | Value[] | { [key: string]: Value };
type Path = (string | number)[];

const PLAIN_SCALARS = ['a', 'foo bar', '$re', '/api/', 'x-y', 'a:b', 'a#b', 'http://x.y/z?q=1', '-a', '?a', ':a', 'é ü', '[x]', 'a,b', '{y}'];
const TRICKY_SCALARS = ['true', 'False', 'null', '~', '12', '-3', '1.5', '.inf', '0x1F', '0o7', '1e3', '', ' lead', 'trail ', "it's", 'say "hi"', 'back\\slash',
  'a: b', 'a #b', '#x', '&a', '*a', '!t', '|', '>', '%p', '@at', '`b', '---', '...', '- x', 'x\u00a0', 'line\nbreak', 'a  b', '<<'];
const PLAIN_KEYS = ['name', 'rules', 'value', 'a b', 'x-y', 'k:v', '$in', 'constructor', 'é'];
const TRICKY_KEYS = ['true', '1', '<<', '__proto__', '"q"', "it's", '', 'a #b', '- a', '[k]'];
/** Mostly what real files hold, sometimes what they should not. */
const mostly = (plain: string[], tricky: string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...plain), weight: 9 }, { arbitrary: fc.constantFrom(...tricky), weight: 1 });

const scalarStyle = fc.constantFrom('plain', 'single', 'double');
function renderScalar(text: string, style: string): string {
  if (style === 'single') return `'${text.replaceAll("'", "''")}'`;
  if (style === 'double') return JSON.stringify(text);
  return text;
}

/** A document as a tree of values, each with the style to write it in. */
type Node =
  | { kind: 'scalar'; text: string; style: string }
  | { kind: 'list' | 'map'; flow: boolean; compact: boolean; step: number; items: { key: string; keyStyle: string; node: Node }[] };

const node: fc.Memo<Node> = fc.memo((depth) => {
  const scalar = fc.record({ kind: fc.constant('scalar' as const), text: mostly(PLAIN_SCALARS, TRICKY_SCALARS), style: scalarStyle });
  if (depth <= 1) return scalar;
  const items = fc.array(fc.record({ key: mostly(PLAIN_KEYS, TRICKY_KEYS), keyStyle: scalarStyle, node: node(depth - 1) }), { minLength: 1, maxLength: 4 });
  const collection = fc.record({
    kind: fc.constantFrom('list' as const, 'map' as const),
    flow: fc.boolean(),
    compact: fc.boolean(),
    step: fc.integer({ min: 1, max: 4 }),
    items,
  });
  return fc.oneof({ arbitrary: scalar, weight: 2 }, { arbitrary: collection, weight: 3 });
});

function renderFlow(n: Node): string {
  if (n.kind === 'scalar') return renderScalar(n.text, n.style);
  const inner = n.items.map((item) => (n.kind === 'list' ? renderFlow(item.node) : `${renderScalar(item.key, item.keyStyle)}: ${renderFlow(item.node)}`));
  return n.kind === 'list' ? `[${inner.join(', ')}]` : `{ ${inner.join(', ')} }`;
}

/** Lines of a block collection at `indent`; the first line may be joined to a `- ` or `key:` the caller writes. */
function renderBlock(n: Node, indent: number, comments: boolean): string[] {
  if (n.kind === 'scalar' || n.flow) return [renderFlow(n)];
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const item of n.items) {
    const child = item.node;
    const nested = child.kind !== 'scalar' && !child.flow;
    if (n.kind === 'list') {
      if (!nested) lines.push(`${pad}- ${renderFlow(child)}`);
      else if (child.kind === 'map') {
        // The first key on the dash's line, the others under it.
        const [first, ...rest] = renderBlock(child, indent + 2, comments);
        lines.push(`${pad}- ${(first ?? '').trimStart()}`, ...rest);
      } else lines.push(`${pad}-`, ...renderBlock(child, indent + n.step, comments));
    } else {
      const key = `${pad}${renderScalar(item.key, item.keyStyle)}:`;
      if (!nested) lines.push(`${key} ${renderFlow(child)}${comments ? ' # note' : ''}`);
      else lines.push(key, ...renderBlock(child, child.kind === 'list' && n.compact ? indent : indent + n.step, comments));
    }
    if (comments) lines.push(`${pad}# between`, '');
  }
  return lines;
}

const document = fc.record({ top: node(4), comments: fc.boolean(), crlf: fc.boolean(), start: fc.boolean() }).map(({ top, comments, crlf, start }) => {
  // Documents of the subset are mappings.
  const root: Node = top.kind === 'map' ? top : { kind: 'map', flow: false, compact: false, step: 2, items: [{ key: 'root', keyStyle: 'plain', node: top }] };
  const body = renderBlock(root, 0, comments).join('\n');
  const text = `${start ? '--- # doc\n' : ''}${body}\n`;
  return crlf ? text.replaceAll('\n', '\r\n') : text;
});

/** Where `yaml` says the node at `path` starts (as the slow path locates nodes). */
function yamlOffset(doc: Document, path: Path): number | undefined {
  let current: unknown = doc.contents;
  for (const segment of path) {
    if (isMap(current)) current = current.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === String(segment))?.value;
    else if (isSeq(current)) current = current.items[segment as number];
    else return undefined;
  }
  return (current as { range?: number[] } | undefined)?.range?.[0];
}

function paths(value: Value, prefix: Path = []): Path[] {
  if (typeof value === 'string') return [prefix];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...children.flatMap(([key, child]) => paths(child, [...prefix, key]))];
}

/** Texts the fast parser accepted but reads differently from `yaml`. */
function disagreements(texts: string[]): { text: string; problem: string }[] {
  const out = [];
  for (const text of texts) {
    const fast = parsePlainYaml(text);
    if (!fast) continue;
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0) {
      out.push({ text, problem: `yaml: ${doc.errors[0]?.message ?? ''}` });
      continue;
    }
    const slow: unknown = doc.toJS({ maxAliasCount: 50 });
    if (!isDeepStrictEqual(fast.value, slow)) out.push({ text, problem: `value ${JSON.stringify(fast.value)} vs ${JSON.stringify(slow)}` });
    else {
      const moved = paths(slow as Value).find((path) => fast.offsetOf(path) !== yamlOffset(doc, path));
      if (moved) out.push({ text, problem: `offset of ${JSON.stringify(moved)}: ${fast.offsetOf(moved)} vs ${yamlOffset(doc, moved)}` });
    }
  }
  return out;
}

describe('the plain-subset YAML parser', () => {
  it('knows which plain scalars yaml reads as something other than a string', () => {
    const core = new Schema({ schema: 'core' }).tags.flatMap((tag) => (tag.default === true && tag.test ? [`(?:${tag.test.source})`] : []));
    expect(NON_STRING_PLAIN.source).toBe(core.join('|'));
  });

  it('reads generated documents exactly as yaml does, or leaves them to it', () => {
    const texts = fc.sample(document, { seed: 1_234, numRuns: 4000 });
    expect(disagreements(texts)).toEqual([]);
    // The subset is most of what plain documents use: a good share must be accepted.
    expect(texts.filter((text) => parsePlainYaml(text) !== undefined).length).toBeGreaterThan(texts.length / 5);
  });

  it('agrees with yaml on mutated documents (inserted YAML syntax)', () => {
    const mutated = fc.sample(fc.tuple(document, fc.array(syntaxMutation, { minLength: 1, maxLength: 3 })), { seed: 99, numRuns: 4000 })
      .map(([text, mutations]) => mutate(Buffer.from(text), mutations).toString('utf8'));
    expect(disagreements(mutated)).toEqual([]);
  });

  it('leaves documents outside the subset to yaml', () => {
    const outside = ['', '# only\n', 'a\n', '- a\n', 'a: &x b\n', 'a: *x\n', 'a: !!str b\n', 'a: |\n  b\n', 'a: >\n  b\n', 'a: "b\n  c"\n',
      'a: b\n  c\n', 'a:\n', 'a: [b,\n  c]\n', 'a: [b, ]\n', 'a: 1\n', 'a: b\na: c\n', '? a\n: b\n', 'a: b\n---\nc: d\n', 'a: b\n...\n',
      'a:\tb\n', 'a: b\rc: d\n', '<<: {a: b}\n', 'a: - b\n', 'a: b: c\n', '- - a\n', 'a: "\\x41"\n', 'a: [b]c\n', 'a: {b: c}#\n',
      '"a":b\n', 'a:\n  b: c\n d: e\n'];
    expect(outside.filter((text) => parsePlainYaml(text) !== undefined)).toEqual([]);
  });

  it('locates nodes as yaml does, in a rule file', () => {
    const text = '# c\nrules:\n- name: x # n\n  ruleId: "r1"\n  actions: [ allow, block ]\n  conditions:\n    operator: $or\n';
    const parsed = parsePlainYaml(text);
    expect(parsed?.value).toEqual({ rules: [{ name: 'x', ruleId: 'r1', actions: ['allow', 'block'], conditions: { operator: '$or' } }] });
    const at = (path: Path) => parsed?.offsetOf(path);
    expect([at([]), at(['rules']), at(['rules', 0]), at(['rules', 0, 'ruleId']), at(['rules', 0, 'actions', 1]), at(['rules', 1]), at(['nope'])])
      .toEqual([4, 11, 13, 35, 60, undefined, undefined]);
    expect(disagreements([text])).toEqual([]);
  });
});
