// A small parser for the plain subset of YAML that rule files are written in: block mappings
// and lists, one-line flow collections, and one-line scalars (plain, single- or double-quoted)
// that are strings. It exists for speed (a plan reads thousands of files) and never has the
// last word: anything outside the subset throws OutsideSubset and the caller reads the file
// with the `yaml` package instead, which alone words and locates problems. Within the subset
// it must read exactly what `yaml` reads; the fast-path tests compare both on many inputs.
// It scans character codes rather than one-character strings: a plan runs it once per file,
// mostly before the JIT has warmed up, and simple integer loops are what is fast then.
/** Thrown (and caught by parsePlainYaml) when the text leaves the subset. */
class OutsideSubset extends Error {}

/**
 * Plain scalars that `yaml` (YAML 1.2 core schema) reads as null, a boolean or a number: the
 * tests of its core schema's tags, joined. Written out so that reading a clean file never loads
 * `yaml`; a test checks that it is still exactly what `yaml` uses.
 */
export const NON_STRING_PLAIN =
  /(?:^(?:~|[Nn]ull|NULL)?$)|(?:^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$)|(?:^0o[0-7]+$)|(?:^[-+]?[0-9]+$)|(?:^0x[0-9a-fA-F]+$)|(?:^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$)|(?:^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$)|(?:^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$)/;
/** Every plain scalar NON_STRING_PLAIN matches starts with one of these (nulls, booleans, numbers, .inf, .nan). */
const MAY_BE_NON_STRING = /^[-+.~0-9nNtTfF]|^$/;

/** Characters the subset leaves to `yaml`: tabs, a CR not ending a line, control and Unicode line-break characters, BOMs. */
// eslint-disable-next-line no-control-regex
const OUTSIDE_CHARACTERS = /[\t\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\r(?!\n)/;

const enum Ch {
  LF = 10,
  CR = 13,
  Space = 32,
  Bang = 33,
  DoubleQuote = 34,
  Hash = 35,
  Percent = 37,
  Ampersand = 38,
  SingleQuote = 39,
  Star = 42,
  Comma = 44,
  Dash = 45,
  Dot = 46,
  Colon = 58,
  Greater = 62,
  Question = 63,
  At = 64,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  Backtick = 96,
  OpenBrace = 123,
  Pipe = 124,
  CloseBrace = 125,
}

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

/** A space, a line break, or past the end (NaN). */
function isBlank(code: number): boolean {
  return code === Ch.Space || code === Ch.LF || code === Ch.CR || Number.isNaN(code);
}

function isFlowIndicator(code: number): boolean {
  return code === Ch.Comma || code === Ch.OpenBracket || code === Ch.CloseBracket || code === Ch.OpenBrace || code === Ch.CloseBrace;
}

/** YAML's c-indicator: characters that may not start a plain scalar (- ? : may, before a safe character). */
function isIndicator(code: number): boolean {
  switch (code) {
    case Ch.Dash: case Ch.Question: case Ch.Colon: case Ch.Comma: case Ch.OpenBracket: case Ch.CloseBracket:
    case Ch.OpenBrace: case Ch.CloseBrace: case Ch.Hash: case Ch.Ampersand: case Ch.Star: case Ch.Bang:
    case Ch.Pipe: case Ch.Greater: case Ch.SingleQuote: case Ch.DoubleQuote: case Ch.Percent: case Ch.At: case Ch.Backtick:
      return true;
    default:
      return false;
  }
}

class Parser {
  private pos = 0;
  private lineStart = 0;
  /** Where each mapping's and list's entries start, for offsetOf. */
  private readonly offsets = new Map<object, Record<string, number> | number[]>();

  constructor(private readonly text: string) {}

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

  /** A plain scalar inside a flow collection: it ends at a flow indicator or at `: `; a comment or line end leaves the subset. */
  private flowPlain(): string {
    this.checkPlainStart(true);
    const text = this.text;
    const start = this.pos;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF || c === Ch.CR || Number.isNaN(c)) throw new OutsideSubset();
      if (isFlowIndicator(c)) break;
      if (c === Ch.Colon) {
        const next = text.charCodeAt(i + 1);
        if (isBlank(next) || isFlowIndicator(next)) break;
      }
      if (c === Ch.Hash && text.charCodeAt(i - 1) === Ch.Space) throw new OutsideSubset();
      i += 1;
    }
    this.pos = this.trimEnd(start, i);
    return this.plainString(start, this.pos);
  }

  /** A single- or double-quoted scalar on one line (double quotes with JSON's escapes only). */
  private quoted(): string {
    const text = this.text;
    const start = this.pos;
    const quote = text.charCodeAt(start);
    let i = start + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF || c === Ch.CR || Number.isNaN(c)) throw new OutsideSubset();
      if (c === quote) {
        if (quote === Ch.DoubleQuote || text.charCodeAt(i + 1) !== Ch.SingleQuote) break;
        escaped = true; // '' in single quotes
        i += 2;
      } else if (c === Ch.Backslash && quote === Ch.DoubleQuote) {
        escaped = true;
        i += 2;
      } else i += 1;
    }
    this.pos = i + 1;
    if (!escaped) return text.slice(start + 1, i);
    if (quote === Ch.SingleQuote) return text.slice(start + 1, i).replaceAll("''", "'");
    return jsonString(text.slice(start, i + 1));
  }

  private plainString(start: number, end: number): string {
    const value = this.text.slice(start, end);
    if (MAY_BE_NON_STRING.test(value) && (value === '' || NON_STRING_PLAIN.test(value))) throw new OutsideSubset();
    return value;
  }

  /** YAML's rule for the first character of a plain scalar. */
  private checkPlainStart(inFlow: boolean): void {
    const code = this.code(this.pos);
    if (!isIndicator(code)) return;
    const next = this.code(this.pos + 1);
    const safe = !isBlank(next) && !(inFlow && isFlowIndicator(next));
    if (!((code === Ch.Dash || code === Ch.Question || code === Ch.Colon) && safe)) throw new OutsideSubset();
  }

  private checkKey(key: string, mapping: Record<string, unknown>): void {
    if (key.length > MAX_KEY_LENGTH || key === '<<' || key === '__proto__' || Object.hasOwn(mapping, key)) throw new OutsideSubset();
  }

  /** Only spaces and a comment may follow a scalar or flow collection on its line. */
  private endOfLine(): void {
    this.spaces();
    if (!this.atLineEnd()) throw new OutsideSubset();
  }

  private atListEntry(): boolean {
    return this.code(this.pos) === Ch.Dash && isBlank(this.code(this.pos + 1));
  }

  /** At a line break, the end, or a comment (a `#` after a blank). */
  private atLineEnd(): boolean {
    const code = this.code(this.pos);
    return isBlank(code) || (code === Ch.Hash && (this.pos === 0 || isBlank(this.code(this.pos - 1))));
  }

  private code(i: number): number {
    return this.text.charCodeAt(i);
  }

  private spaces(): void {
    while (this.text.charCodeAt(this.pos) === Ch.Space) this.pos += 1;
  }

  private trimEnd(start: number, end: number): number {
    let i = end;
    while (i > start && this.text.charCodeAt(i - 1) === Ch.Space) i -= 1;
    return i;
  }

  /** `---` or `...` (three of `code`) at the start of a line, followed by a blank. */
  private startsMarker(code: Ch.Dash | Ch.Dot): boolean {
    const { text, pos } = this;
    return pos === this.lineStart && text.charCodeAt(pos) === code && text.charCodeAt(pos + 1) === code &&
      text.charCodeAt(pos + 2) === code && isBlank(text.charCodeAt(pos + 3));
  }

  /** Skips the rest of the line (a comment at most: callers checked), blank lines and comment lines. */
  private skipSeparation(): void {
    const text = this.text;
    for (;;) {
      this.spaces();
      const code = text.charCodeAt(this.pos);
      if (code === Ch.Hash) {
        const eol = text.indexOf('\n', this.pos);
        this.pos = eol === -1 ? text.length : eol;
      } else if (code === Ch.LF || code === Ch.CR) {
        this.pos += code === Ch.CR ? 2 : 1;
        this.lineStart = this.pos;
      } else return;
    }
  }

  /** To the next content; a document marker there would start or end a document: left to `yaml`. */
  private toContent(): void {
    this.skipSeparation();
    if (this.startsMarker(Ch.Dash) || this.startsMarker(Ch.Dot)) throw new OutsideSubset();
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

function jsonString(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'string') return value;
  } catch {
    // not one of JSON's escapes: `yaml` decides
  }
  throw new OutsideSubset();
}
