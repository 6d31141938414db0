// A small parser for the plain subset of YAML that rule files are written in: block mappings
// and lists, one-line flow collections, and one-line scalars (plain, single- or double-quoted)
// that are strings. It exists for speed (a plan reads thousands of files) and never has the
// last word: anything outside the subset throws OutsideSubset and the caller reads the file
// with the `yaml` package instead, which alone words and locates problems. Within the subset
// it must read exactly what `yaml` reads; the fast-path tests compare both on many inputs.
// Block structure and flow collections are here; characters and scalars are in yaml-scanner.ts.
import { Ch, OUTSIDE_CHARACTERS, OutsideSubset, Scanner, isBlank } from './yaml-scanner.js';

const MAX_DEPTH = 100;
/** `yaml` refuses implicit keys longer than 1024 characters. */
const MAX_KEY_LENGTH = 1000;

export interface PlainYaml {
  value: unknown;
  /** Offset where the node at `path` starts (as the `yaml` Document's range gives it), or undefined. */
  offsetOf(path: readonly (string | number)[]): number | undefined;
}

/** Parses `text` if it lies in the subset; undefined means "read it with `yaml`". */
export function parsePlainYaml(text: string): PlainYaml | undefined {
  if (OUTSIDE_CHARACTERS.test(text)) return undefined;
  try {
    return new Parser(text).document();
  } catch (err) {
    if (err instanceof OutsideSubset) return undefined;
    throw err;
  }
}

class Parser extends Scanner {
  /** Where each mapping's and list's entries start, for offsetOf. */
  private readonly offsets = new Map<object, Record<string, number> | number[]>();

  document(): PlainYaml {
    this.skipSeparation();
    if (this.startsMarker(Ch.Dash)) {
      this.pos += 3;
      this.spaces();
      if (!this.atLineEnd()) throw new OutsideSubset();
      this.toContent();
    }
    if (this.pos >= this.text.length) throw new OutsideSubset();
    const rootOffset = this.pos;
    const value = this.blockNode(false, false, 0);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OutsideSubset();
    this.toContent();
    if (this.pos < this.text.length) throw new OutsideSubset();
    return { value, offsetOf: (path) => this.offsetOf(value, rootOffset, path) };
  }

  /**
   * Moves to the node that follows `key:` or `- ` in a collection whose entries are at column
   * `parent`: on the same line (returns true), or on a later, deeper line. A list may also sit
   * at the parent's own column when it is a mapping's value. A missing node (null) is left to `yaml`.
   */
  private toNode(parent: number, sameColumnList: boolean): boolean {
    this.spaces();
    if (!this.atLineEnd()) return true;
    this.toContent();
    const column = this.pos - this.lineStart;
    const deepEnough = column > parent || (sameColumnList && column === parent && this.atListEntry());
    if (this.pos >= this.text.length || !deepEnough) throw new OutsideSubset();
    return false;
  }

  /** The node at the cursor; `inline` when it follows `key:` or `- ` on the same line. */
  private blockNode(inline: boolean, afterDash: boolean, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new OutsideSubset();
    const column = this.pos - this.lineStart;
    const code = this.code(this.pos);
    if (code === Ch.OpenBracket || code === Ch.OpenBrace) {
      const value = this.flowNode(depth);
      this.endOfLine();
      return value;
    }
    if (this.atListEntry()) {
      // `key: - a` is invalid and `- - a` is rare: both are left to `yaml`.
      if (inline) throw new OutsideSubset();
      return this.blockList(column, depth);
    }
    const start = this.pos;
    const scalar = this.blockScalarOrKey();
    if (scalar === undefined) {
      // `key: k: v` is invalid YAML: a mapping starts on the same line only after `- `.
      if (inline && !afterDash) throw new OutsideSubset();
      this.pos = start;
      return this.blockMapping(column, depth);
    }
    this.endOfLine();
    return scalar;
  }

  private blockMapping(column: number, depth: number): Record<string, unknown> {
    const mapping: Record<string, unknown> = {};
    const offsets: Record<string, number> = Object.create(null) as Record<string, number>;
    this.offsets.set(mapping, offsets);
    for (;;) {
      if (this.blockScalarOrKey() !== undefined) throw new OutsideSubset();
      const key = this.key;
      this.checkKey(key, mapping);
      this.pos += 1; // the ':'
      const inline = this.toNode(column, true);
      offsets[key] = this.pos;
      mapping[key] = this.blockNode(inline, false, depth + 1);
      if (!this.nextEntryAt(column)) return mapping;
      if (this.atListEntry()) throw new OutsideSubset();
    }
  }

  private blockList(column: number, depth: number): unknown[] {
    const list: unknown[] = [];
    const offsets: number[] = [];
    this.offsets.set(list, offsets);
    for (;;) {
      this.pos += 1; // the '-'
      const inline = this.toNode(column, false);
      offsets.push(this.pos);
      list.push(this.blockNode(inline, true, depth + 1));
      if (!this.nextEntryAt(column) || !this.atListEntry()) return list;
    }
  }

  /** Moves to the next content; true when it is at `column` (another entry), false when shallower or at the end. */
  private nextEntryAt(column: number): boolean {
    this.toContent();
    if (this.pos >= this.text.length) return false;
    const next = this.pos - this.lineStart;
    if (next > column) throw new OutsideSubset(); // a continuation line or bad indentation
    return next === column;
  }

  /** The last mapping key blockScalarOrKey read. */
  private key = '';

  /**
   * A plain or quoted scalar in block context. When a `:` and a space (or the line's end)
   * follow it, it is a mapping key: then it is stored in `key`, `pos` is left at the `:`, and
   * undefined is returned.
   */
  private blockScalarOrKey(): string | undefined {
    const text = this.text;
    const first = this.code(this.pos);
    if (first === Ch.DoubleQuote || first === Ch.SingleQuote) {
      const value = this.quoted();
      this.spaces();
      if (this.code(this.pos) !== Ch.Colon || !isBlank(this.code(this.pos + 1))) return value;
      this.key = value;
      return undefined;
    }
    this.checkPlainStart(false);
    const start = this.pos;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF || c === Ch.CR || Number.isNaN(c)) break;
      if (c === Ch.Colon && isBlank(text.charCodeAt(i + 1))) {
        this.key = this.plainString(start, this.trimEnd(start, i));
        this.pos = i;
        return undefined;
      }
      if (c === Ch.Hash && text.charCodeAt(i - 1) === Ch.Space) break;
      i += 1;
    }
    const end = this.trimEnd(start, i);
    this.pos = end;
    return this.plainString(start, end);
  }

  private flowNode(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new OutsideSubset();
    const code = this.code(this.pos);
    if (code === Ch.OpenBracket) return this.flowList(depth);
    if (code === Ch.OpenBrace) return this.flowMapping(depth);
    if (code === Ch.DoubleQuote || code === Ch.SingleQuote) return this.quoted();
    return this.flowPlain();
  }

  private flowList(depth: number): unknown[] {
    const list: unknown[] = [];
    const offsets: number[] = [];
    this.offsets.set(list, offsets);
    this.pos += 1;
    this.spaces();
    if (this.code(this.pos) === Ch.CloseBracket) {
      this.pos += 1;
      return list;
    }
    for (;;) {
      offsets.push(this.pos);
      list.push(this.flowNode(depth + 1));
      this.spaces();
      if (this.flowSeparator(Ch.CloseBracket)) return list;
    }
  }

  private flowMapping(depth: number): Record<string, unknown> {
    const mapping: Record<string, unknown> = {};
    const offsets: Record<string, number> = Object.create(null) as Record<string, number>;
    this.offsets.set(mapping, offsets);
    this.pos += 1;
    this.spaces();
    if (this.code(this.pos) === Ch.CloseBrace) {
      this.pos += 1;
      return mapping;
    }
    for (;;) {
      const first = this.code(this.pos);
      const key = first === Ch.DoubleQuote || first === Ch.SingleQuote ? this.quoted() : this.flowPlain();
      this.checkKey(key, mapping);
      this.spaces();
      if (this.code(this.pos) !== Ch.Colon || this.code(this.pos + 1) !== Ch.Space) throw new OutsideSubset();
      this.pos += 1;
      this.spaces();
      offsets[key] = this.pos;
      mapping[key] = this.flowNode(depth + 1);
      this.spaces();
      if (this.flowSeparator(Ch.CloseBrace)) return mapping;
    }
  }

  /** After a flow entry: the closing bracket (true: done), or `,` and another entry (false). */
  private flowSeparator(close: Ch): boolean {
    const code = this.code(this.pos);
    if (code === close) {
      this.pos += 1;
      return true;
    }
    if (code !== Ch.Comma) throw new OutsideSubset();
    this.pos += 1;
    this.spaces();
    const next = this.code(this.pos);
    // A trailing comma, or an entry on the next line: left to `yaml`.
    if (next === Ch.CloseBracket || next === Ch.CloseBrace || this.atLineEnd()) throw new OutsideSubset();
    return false;
  }

  private checkKey(key: string, mapping: Record<string, unknown>): void {
    if (key.length > MAX_KEY_LENGTH || key === '<<' || key === '__proto__' || Object.hasOwn(mapping, key)) throw new OutsideSubset();
  }

  private offsetOf(root: object, rootOffset: number, path: readonly (string | number)[]): number | undefined {
    let node: unknown = root;
    let offset = rootOffset;
    for (const segment of path) {
      if (typeof node !== 'object' || node === null) return undefined;
      const entries = this.offsets.get(node);
      const found = Array.isArray(entries) ? (typeof segment === 'number' ? entries[segment] : undefined) : entries?.[String(segment)];
      if (found === undefined) return undefined;
      offset = found;
      node = Array.isArray(node) ? node[segment as number] : (node as Record<string, unknown>)[String(segment)];
    }
    return offset;
  }
}
