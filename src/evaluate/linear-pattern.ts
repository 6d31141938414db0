// A JavaScript regular expression (no flags, or `i`) rewritten for RE2, the linear-time engine,
// when RE2 gives every text without surrogate code units the same answer as `RegExp.test`;
// otherwise undefined and the pattern runs on V8's engine under a time budget (pattern.ts).
//
// What differs between the two and how it is bridged:
// - `.` excludes \n, \r, U+2028 and U+2029 in JavaScript, only \n in RE2: written out as a class;
// - `\s` is JavaScript's whitespace and line terminators (Unicode spaces, U+FEFF): written out;
// - every literal is written as `\x{…}` (so JavaScript's identity escapes such as `\a` or `\z`
//   never reach RE2, where they mean something else);
// - `i`: JavaScript (without `u`) folds ASCII letters only to each other, RE2 folds Unicode
//   (`s` matches `ſ`, `k` matches the Kelvin sign): letters are expanded to both cases here and
//   RE2's folding is never used; a pattern with any other character under `i` is not rewritten;
// - backreferences, lookahead and lookbehind, octal escapes, `\c` without a letter, an empty
//   class, and ranges with a class escape at one end are not rewritten (no RE2 counterpart, or
//   Annex B's reading is easy to get wrong); neither is anything RE2 refuses (e.g. `{1001}`).
// `^` and `$` (no `m` flag) mean the start and end of the text in both; `\d`, `\w`, `\b` are ASCII in both.
// test/evaluate/linear-pattern.property.test.ts compares both engines on random patterns and texts.

/** JavaScript's WhiteSpace and LineTerminator code points, as RE2 class ranges. */
const WHITESPACE = '\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const DOT = '[^\\x{a}\\x{d}\\x{2028}\\x{2029}]';
const CONTROL: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };
const QUANTIFIER = /^\{[0-9]+(?:,[0-9]*)?\}/;

/** Thrown inside the rewriter when the pattern is not rewritten. */
class NotLinear extends Error {}

/** The RE2 form of a JavaScript pattern that compiles in JavaScript, or undefined. */
export function linearForm(source: string, ignoreCase: boolean): string | undefined {
  try {
    return new Rewriter(source, ignoreCase).pattern();
  } catch (err) {
    if (err instanceof NotLinear) return undefined;
    throw err;
  }
}

class Rewriter {
  private at = 0;

  constructor(private readonly source: string, private readonly ignoreCase: boolean) {}

  pattern(): string {
    let out = '';
    while (this.at < this.source.length) out += this.next();
    return out;
  }

  private next(): string {
    const c = this.source[this.at] as string;
    this.at += 1;
    switch (c) {
      case '\\': return this.escape();
      case '[': return this.characterClass();
      case '(': return this.group();
      case ')': case '|': case '^': case '$': return c;
      case '.': return DOT;
      case '*': case '+': case '?': return c + this.lazy();
      case '{': {
        const quantifier = QUANTIFIER.exec(this.source.slice(this.at - 1))?.[0];
        if (quantifier === undefined) return this.literal(c.charCodeAt(0));
        this.at += quantifier.length - 1;
        return quantifier + this.lazy();
      }
      default: return this.literal(c.charCodeAt(0));
    }
  }

  private lazy(): string {
    if (this.source[this.at] !== '?') return '';
    this.at += 1;
    return '?';
  }

  private group(): string {
    if (this.source[this.at] !== '?') return '(';
    if (this.source.startsWith('?:', this.at)) {
      this.at += 2;
      return '(?:';
    }
    // Named groups are groups; lookahead and lookbehind have no RE2 counterpart.
    const named = /^\?<([A-Za-z_$][A-Za-z0-9_$]*)>/.exec(this.source.slice(this.at));
    if (named === null) throw new NotLinear();
    this.at += named[0].length;
    return '(';
  }

  /** After a backslash outside a class. */
  private escape(): string {
    const c = this.source[this.at] as string;
    switch (c) {
      case 'd': case 'D': case 'w': case 'W': case 'b': case 'B':
        this.at += 1;
        return `\\${c}`;
      case 's': this.at += 1; return `[${WHITESPACE}]`;
      case 'S': this.at += 1; return `[^${WHITESPACE}]`;
      default: return this.literal(this.escapedCode());
    }
  }

  /** The code unit an escape that is not a class escape stands for (after the backslash). */
  private escapedCode(): number {
    const c = this.source[this.at] as string;
    this.at += 1;
    const control = CONTROL[c];
    if (control !== undefined) return control;
    if (c === '0') {
      if (/[0-9]/.test(this.source[this.at] ?? '')) throw new NotLinear();
      return 0;
    }
    if (/[1-9]/.test(c) || c === 'k') throw new NotLinear();
    if (c === 'x' || c === 'u') {
      const digits = c === 'x' ? 2 : 4;
      const hex = this.source.slice(this.at, this.at + digits);
      if (hex.length !== digits || !/^[0-9A-Fa-f]+$/.test(hex)) return c.charCodeAt(0);
      this.at += digits;
      return parseInt(hex, 16);
    }
    if (c === 'c') {
      const letter = this.source[this.at] ?? '';
      if (!/^[A-Za-z]$/.test(letter)) throw new NotLinear();
      this.at += 1;
      return letter.charCodeAt(0) % 32;
    }
    return c.charCodeAt(0);
  }

  private characterClass(): string {
    const negated = this.source[this.at] === '^';
    if (negated) this.at += 1;
    const parts: string[] = [];
    let first = true;
    for (;;) {
      const c = this.source[this.at];
      if (c === undefined) throw new NotLinear();
      if (c === ']') {
        this.at += 1;
        break;
      }
      const low = this.classAtom(first);
      first = false;
      const dashRange = this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && this.source[this.at + 1] !== undefined;
      if (typeof low === 'string') {
        // `[\d-a-z]`: Annex B reads `\d-a` as \d, `-` and `a`, and the `-z` after it as `-` and `z`.
        if (dashRange) throw new NotLinear();
        parts.push(low);
        continue;
      }
      if (dashRange) {
        this.at += 1;
        const high = this.classAtom(false);
        if (typeof high === 'string') throw new NotLinear();
        parts.push(...this.range(low, high));
      } else parts.push(...this.range(low, low));
    }
    if (parts.length === 0) {
      if (!negated) throw new NotLinear();
      return '[\\x{0}-\\x{10ffff}]';
    }
    return `[${negated ? '^' : ''}${parts.join('')}]`;
  }

  /** A code unit, or a class escape (`\d`, whitespace...) as RE2 class text. */
  private classAtom(first: boolean): number | string {
    const c = this.source[this.at] as string;
    this.at += 1;
    if (c === ']' && first) throw new NotLinear();
    if (c !== '\\') return c.charCodeAt(0);
    const e = this.source[this.at] as string;
    if ('dDwW'.includes(e)) {
      this.at += 1;
      return `\\${e}`;
    }
    if (e === 's') {
      this.at += 1;
      return WHITESPACE;
    }
    if (e === 'S') throw new NotLinear();
    if (e === 'b') {
      this.at += 1;
      return 8;
    }
    if (e === '-') {
      this.at += 1;
      return 45;
    }
    return this.escapedCode();
  }

  /** A range of code units as RE2 class text; under `i`, ASCII only and with both cases of its letters. */
  private range(low: number, high: number): string[] {
    if (high >= 0xd800 && low <= 0xdfff) throw new NotLinear();
    const ranges: [number, number][] = [[low, high]];
    if (this.ignoreCase) {
      if (high > 0x7f) throw new NotLinear();
      for (const [from, to, shift] of [[0x41, 0x5a, 0x20], [0x61, 0x7a, -0x20]] as const) {
        const a = Math.max(low, from);
        const b = Math.min(high, to);
        if (a <= b) ranges.push([a + shift, b + shift]);
      }
    }
    return ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`));
  }

  private literal(code: number): string {
    if (code >= 0xd800 && code <= 0xdfff) throw new NotLinear();
    if (this.ignoreCase) {
      if (code > 0x7f) throw new NotLinear();
      const c = String.fromCharCode(code);
      if (/[A-Za-z]/.test(c)) return `[${c.toLowerCase()}${c.toUpperCase()}]`;
    }
    return /[A-Za-z0-9]/.test(String.fromCharCode(code)) ? String.fromCharCode(code) : hex(code);
  }
}

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}
