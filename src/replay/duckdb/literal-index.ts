// The texts of a field's `$contains` leaves and of the literals its `$re` leaves' patterns
// require (required-literal.ts), indexed so that a value finds the leaves whose text it holds
// without one test per leaf (docs/replay.md, "Engines": the classing of distinct values). A
// `$contains` leaf holds for a present value exactly when the value holds its text; a `$re`
// leaf indexed here (every pattern run by RE2, whole or split at its leading lookaheads, each
// with a required literal) can hold only
// where the value holds one of its literals, so only those leaves are asked (field-verdicts.ts).
import { compilePattern } from '../../evaluate/pattern.js';
import { linearForm } from '../../evaluate/linear-pattern.js';
import { lookaheadParts } from '../../evaluate/pattern-lookahead.js';
import { firstValue, leafValues } from '../../semantics/fields.js';
import type { Leaf } from '../../semantics/model.js';
import { requiredLiteral } from './required-literal.js';

/**
 * The texts whose presence in a value decides a leaf (`$contains`) or allows it (`$re`), or
 * undefined for a leaf whose verdict no text decides: it is asked about every value. Patterns
 * are compiled as leafVerdict compiles them without options (values compared as written).
 */
export function leafTexts(leaf: Leaf): string[] | undefined {
  if (leaf.operator === '$contains') return [firstValue(leaf)];
  if (leaf.operator !== '$re') return undefined;
  const sources = leafValues(leaf);
  const literals: string[] = [];
  for (const source of sources) {
    const literal = patternLiteral(source);
    if (literal === undefined) return undefined;
    literals.push(literal);
  }
  return literals.length === 0 ? undefined : literals;
}

/**
 * A text every match of the pattern holds, where RE2 decides it (pattern.ts): the whole pattern's
 * RE2 form, or, for a pattern split at its leading lookaheads, one of the parts that must match.
 * Only RE2's answer is the pattern's alone; V8's runs depend on their time budget.
 */
function patternLiteral(source: string): string | undefined {
  const { engine } = compilePattern(source, false);
  const forms = engine === 're2' ? [linearForm(source, false)] : engine === 're2-parts' ? lookaheadParts(source, false)?.required ?? [] : [];
  const literals = forms.map((form) => (form === undefined ? undefined : requiredLiteral(form)));
  return literals.reduce<string | undefined>((best, literal) => (literal !== undefined && literal.length > (best?.length ?? 0) ? literal : best), undefined);
}

export class LiteralIndex {
  /** Each text with the positions of the leaves it belongs to. */
  private readonly texts = new Map<string, number[]>();
  private readonly lengths: number[] = [];

  get size(): number {
    return this.texts.size;
  }

  add(text: string, at: number): void {
    const positions = this.texts.get(text);
    if (positions === undefined) {
      this.texts.set(text, [at]);
      if (!this.lengths.includes(text.length)) this.lengths.push(text.length);
    } else if (!positions.includes(at)) positions.push(at);
  }

  /**
   * The positions of the leaves one of whose texts the value holds (a position may come more
   * than once). The value's substrings of the texts' lengths are looked up, or, where they are
   * more than the texts (a long value), each text is looked for in it.
   */
  holders(value: string, found: (at: number) => void): void {
    let windows = 0;
    for (const length of this.lengths) windows += Math.max(0, value.length - length + 1);
    if (windows > this.texts.size) {
      for (const [text, positions] of this.texts) if (value.includes(text)) for (const at of positions) found(at);
      return;
    }
    for (const length of this.lengths) {
      for (let start = 0; start + length <= value.length; start += 1) {
        const positions = this.texts.get(value.slice(start, start + length));
        if (positions !== undefined) for (const at of positions) found(at);
      }
    }
  }
}
