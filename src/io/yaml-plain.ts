// The quick path of the one YAML reader (yaml-source.ts): a file in the plain style that
// `botrules import` writes and people keep — block mappings and lists, one-line flow
// collections, one-line plain and quoted scalars, comments — read in one pass into the same
// plain values and the same node offsets the `yaml` package's Document gives. Anything else
// (anchors, tags, block scalars, multi-line scalars or flow collections, tabs, CR, a repeated
// key, a number other than a short decimal integer...) makes it answer undefined, and the file
// is read by the Document API as before, which also finds and words every problem. So this
// path never decides whether a file is valid YAML: it only reads files that are, faster
// (docs/design.md, "One YAML reader"; bench/README.md, "Validate"). A differential test holds it
// to the Document's values and positions (test/io/yaml-plain.test.ts).

import type { PlainNode, PlainPair } from './yaml-plain-positions.js';
import { doubleQuoted, notPlain, resolvePlain, singleQuoted } from './yaml-plain-scalars.js';

interface PlainRead {
  value: unknown;
  root: PlainNode;
  /** Offsets at which lines start, as the `yaml` package's LineCounter records them. */
  lineStarts: number[];
}

interface Parsed {
  node: PlainNode;
  value: unknown;
  /** Start of the next content line not consumed, or -1 at the end of the text. */
  next: number;
}

const KEY = /[A-Za-z_$][A-Za-z0-9_$.-]*/y;
// Characters that cannot start a plain scalar, or that this path leaves to the Document.
const INDICATORS = new Set([...'-?:,[]{}#&*!|>\'"%@`']);
const FLOW_END = new Set([...',[]{}']);

/** The file's values and offsets, or undefined when it is not in the plain style. */
export function readPlainYaml(text: string): PlainRead | undefined {
  // Tabs, carriage returns, a byte-order mark, line or paragraph separators and document markers are the Document's.
  if (/[\t\r\uFEFF\u2028\u2029\u0085]|^(?:---|\.\.\.)|^%/m.test(text)) return undefined;
  try {
    return new Reader(text).read();
  } catch (err) {
    if (err === notPlain) return undefined;
    throw err;
  }
}

/** Deeper nesting is the Document's (which reports it located, where recursion here would overflow the stack). */
const MAX_DEPTH = 64;

class Reader {
  private depth = 0;

  constructor(private readonly text: string) {}

  read(): PlainRead {
    const first = this.nextContent(0);
    if (first < 0) throw notPlain;
    const col = this.indent(first);
    const root = this.block(first + col, col);
    if (root.next >= 0) throw notPlain;
    const lineStarts = [0];
    for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    return { value: root.value, root: root.node, lineStarts };
  }

  private block(p: number, col: number): Parsed {
    return this.nest(() => (this.isDash(p) ? this.list(p, col) : this.mapping(p, col)));
  }

  private nest<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) throw notPlain;
    const result = read();
    this.depth -= 1;
    return result;
  }

  /** A block mapping whose first key is at `p`, in column `col` (zero-based). */
  private mapping(p: number, col: number): Parsed {
    const pairs: PlainPair[] = [];
    const value: Record<string, unknown> = {};
    const node: PlainNode = { at: p, pairs };
    for (;;) {
      const key = this.key(p);
      if (Object.hasOwn(value, key)) throw notPlain;
      let q = p + key.length + 1;
      if (this.text[q] === ' ') q = this.skipSpaces(q);
      else if (!this.atLineEnd(q)) throw notPlain;
      let parsed: Parsed;
      if (this.atLineEnd(q) || this.text[q] === '#') parsed = this.nested(q, col);
      else parsed = this.inline(q, col);
      pairs.push({ key, keyAt: p, value: parsed.node });
      value[key] = parsed.value;
      if (parsed.next < 0) return { node, value, next: -1 };
      const indent = this.indent(parsed.next);
      if (indent < col) return { node, value, next: parsed.next };
      p = parsed.next + indent;
      if (indent > col || this.isDash(p)) throw notPlain;
    }
  }

  /** What follows `key:` at the end of its line: a block below it, a list at its indent, or nothing. */
  private nested(q: number, col: number): Parsed {
    const next = this.nextContent(this.lineEnd(q) + 1);
    if (next < 0) return { node: { at: q, isNull: true }, value: null, next };
    const indent = this.indent(next);
    if (indent > col) return this.block(next + indent, indent);
    if (indent === col && this.isDash(next + indent)) return this.list(next + indent, indent);
    return { node: { at: q, isNull: true }, value: null, next };
  }

  /** A block list whose first `-` is at `p`, in column `col`. */
  private list(p: number, col: number): Parsed {
    const items: PlainNode[] = [];
    const value: unknown[] = [];
    const node: PlainNode = { at: p, items };
    for (;;) {
      const q = this.text[p + 1] === ' ' ? this.skipSpaces(p + 1) : p + 1;
      let parsed: Parsed;
      if (this.atLineEnd(q) || this.text[q] === '#') {
        const next = this.nextContent(this.lineEnd(q) + 1);
        if (next < 0 || this.indent(next) <= col) throw notPlain;
        parsed = this.block(next + this.indent(next), this.indent(next));
      } else if (this.isDash(q)) {
        throw notPlain;
      } else if (this.startsKey(q)) {
        parsed = this.nest(() => this.mapping(q, col + (q - p)));
      } else {
        parsed = this.inline(q, col);
      }
      items.push(parsed.node);
      value.push(parsed.value);
      if (parsed.next < 0) return { node, value, next: -1 };
      const indent = this.indent(parsed.next);
      if (indent > col) throw notPlain;
      p = parsed.next + indent;
      if (indent < col || !this.isDash(p)) return { node, value, next: parsed.next };
    }
  }

  /** A value that ends its line (a comment may follow); the next content line must not be deeper than `col`. */
  private inline(q: number, col: number): Parsed {
    const scalar = this.scalar(q, false);
    let end = scalar.end;
    if (this.text[end] === ' ') end = this.skipSpaces(end);
    if (this.text[end] === '#' ? end === scalar.end : !this.atLineEnd(end)) throw notPlain;
    const next = this.nextContent(this.lineEnd(end) + 1);
    if (next >= 0 && this.indent(next) > col) throw notPlain;
    return { node: scalar.node, value: scalar.value, next };
  }

  /** A flow collection, a quoted scalar or a plain one starting at `q`, on its line. */
  private scalar(q: number, flow: boolean): { node: PlainNode; value: unknown; end: number } {
    const c = this.text[q];
    if (c === '[') return this.nest(() => this.flowList(q));
    if (c === '{') return this.nest(() => this.flowMapping(q));
    if (c === '"' || c === "'") {
      const quoted = c === '"' ? doubleQuoted(this.text, q) : singleQuoted(this.text, q);
      return { node: { at: q }, value: quoted.value, end: quoted.end };
    }
    if (c === undefined || INDICATORS.has(c)) throw notPlain;
    let end = q;
    for (;;) {
      const ch = this.text.charCodeAt(end);
      if (Number.isNaN(ch) || ch === 10) break;
      if (ch < 0x20 || (ch >= 0x7f && ch <= 0x9f)) throw notPlain;
      const at = this.text[end] as string;
      if (at === ':' && this.endsPlain(end + 1, flow)) break;
      if (at === '#' && this.text[end - 1] === ' ') break;
      if (flow && FLOW_END.has(at)) break;
      end += 1;
    }
    while (this.text[end - 1] === ' ') end -= 1;
    if (end === q) throw notPlain;
    const value = resolvePlain(this.text.slice(q, end));
    return { node: value === null ? { at: q, isNull: true } : { at: q }, value, end };
  }

  /** Whether a `:` followed by the character at `p` ends a plain scalar (a key's colon). */
  private endsPlain(p: number, flow: boolean): boolean {
    const c = this.text[p];
    return c === undefined || c === ' ' || c === '\n' || (flow && FLOW_END.has(c));
  }

  private flowList(q: number): { node: PlainNode; value: unknown[]; end: number } {
    const items: PlainNode[] = [];
    const value: unknown[] = [];
    let p = this.skipSpaces(q + 1);
    if (this.text[p] === ']') return { node: { at: q, items }, value, end: p + 1 };
    for (;;) {
      const item = this.scalar(p, true);
      items.push(item.node);
      value.push(item.value);
      p = this.skipSpaces(item.end);
      if (this.text[p] === ']') return { node: { at: q, items }, value, end: p + 1 };
      if (this.text[p] !== ',') throw notPlain;
      p = this.skipSpaces(p + 1);
      if (this.text[p] === ']') throw notPlain;
    }
  }

  private flowMapping(q: number): { node: PlainNode; value: Record<string, unknown>; end: number } {
    const pairs: PlainPair[] = [];
    const value: Record<string, unknown> = {};
    let p = this.skipSpaces(q + 1);
    if (this.text[p] === '}') return { node: { at: q, pairs }, value, end: p + 1 };
    for (;;) {
      const key = this.key(p);
      if (Object.hasOwn(value, key) || this.text[p + key.length + 1] !== ' ') throw notPlain;
      const item = this.scalar(this.skipSpaces(p + key.length + 1), true);
      pairs.push({ key, keyAt: p, value: item.node });
      value[key] = item.value;
      p = this.skipSpaces(item.end);
      if (this.text[p] === '}') return { node: { at: q, pairs }, value, end: p + 1 };
      if (this.text[p] !== ',') throw notPlain;
      p = this.skipSpaces(p + 1);
      if (this.text[p] === '}') throw notPlain;
    }
  }

  /** A plain key at `p` followed by `:` (the caller checks what follows the colon). */
  private key(p: number): string {
    KEY.lastIndex = p;
    const found = KEY.exec(this.text);
    if (found === null || this.text[p + found[0].length] !== ':') throw notPlain;
    const key = found[0];
    if (key === '__proto__' || typeof resolvePlain(key) !== 'string') throw notPlain;
    return key;
  }

  private startsKey(p: number): boolean {
    KEY.lastIndex = p;
    const found = KEY.exec(this.text);
    return found !== null && this.text[p + found[0].length] === ':' && this.endsPlain(p + found[0].length + 1, false);
  }

  private isDash(p: number): boolean {
    return this.text[p] === '-' && (this.text[p + 1] === ' ' || this.atLineEnd(p + 1));
  }

  private atLineEnd(p: number): boolean {
    return p >= this.text.length || this.text[p] === '\n';
  }

  private skipSpaces(p: number): number {
    while (this.text[p] === ' ') p += 1;
    return p;
  }

  private indent(lineStart: number): number {
    return this.skipSpaces(lineStart) - lineStart;
  }

  private lineEnd(p: number): number {
    const end = this.text.indexOf('\n', p);
    return end < 0 ? this.text.length : end;
  }

  /** The start of the first line from `p` on that holds more than spaces and a comment, or -1. */
  private nextContent(p: number): number {
    while (p < this.text.length) {
      const first = this.skipSpaces(p);
      if (!this.atLineEnd(first) && this.text[first] !== '#') return p;
      p = this.lineEnd(first) + 1;
    }
    return -1;
  }
}
