// A pattern that opens with lookaheads at the start of the text, `^(?!Mozilla).*bot-7$`, as RE2
// programs: each lookahead's body and the rest of the pattern, all anchored at the start (pattern.ts
// runs them). RE2 has no lookahead, but one at the start of the text asks only whether its body
// matches there: with no `m` flag `^` holds at index 0 alone, so the whole pattern matches exactly
// when every `(?=B)` body matches at 0, no `(?!B)` body does, and the rest matches at 0. A
// lookahead is atomic, so nothing of the rest backtracks into it; what could still tie the parts
// together is a backreference from one part to a group of another, so a pattern with any
// backreference is not split. Each part must have an exact RE2 form (linear-pattern.ts), which
// holds for texts without surrogate code units; the pattern runs on V8 under the budget otherwise.
// test/evaluate/pattern-lookahead.property.test.ts compares the parts with V8 on random patterns and texts.
import { classEnd, groupEnd } from './pattern-literal.js';
import { linearForm } from './linear-pattern.js';

/** The RE2 forms of a pattern split at its leading lookaheads: `required` must match at 0, `refused` must not. */
interface LookaheadParts {
  required: string[];
  refused: string[];
}

/** The parts of `^(?=A)(?!B)…R` with their RE2 forms, or undefined when the pattern is not of that form or a part has none. */
export function lookaheadParts(source: string, ignoreCase: boolean): LookaheadParts | undefined {
  // `\1` and `\k<name>` may name a group of another part (or become an octal or identity escape once split).
  if (source[0] !== '^' || /\\[1-9k]/.test(source)) return undefined;
  const required: string[] = [];
  const refused: string[] = [];
  let at = 1;
  while (source.startsWith('(?=', at) || source.startsWith('(?!', at)) {
    const end = groupEnd(source, at);
    // Annex B lets a lookahead be quantified (`(?=a)*`): not split.
    if (end === undefined || /^[*+?{]/.test(source.slice(end))) return undefined;
    (source[at + 2] === '=' ? required : refused).push(source.slice(at + 3, end - 1));
    at = end;
  }
  const rest = source.slice(at);
  // `^(?!A)b|c` is `(?:^(?!A)b)|c`: the lookahead holds for the first alternative only.
  if (required.length + refused.length === 0 || hasTopLevelAlternation(rest)) return undefined;
  required.push(rest);
  const forms = (bodies: readonly string[]) => bodies.map((body) => linearForm(`^(?:${body})`, ignoreCase));
  const parts = { required: forms(required), refused: forms(refused) };
  return [...parts.required, ...parts.refused].some((form) => form === undefined) ? undefined : (parts as LookaheadParts);
}

/** Whether `|` occurs outside every group and class of the pattern. */
function hasTopLevelAlternation(source: string): boolean {
  for (let at = 0; at < source.length;) {
    const char = source[at];
    if (char === '|') return true;
    const next = char === '\\' ? at + 2 : char === '[' ? classEnd(source, at) : char === '(' ? groupEnd(source, at) : at + 1;
    // An unbalanced group or class: the pattern compiled, so this is a reading this scan does not know; not split.
    if (next === undefined) return true;
    at = next;
  }
  return false;
}
