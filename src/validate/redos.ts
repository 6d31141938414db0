// Patterns that can take exponential time on a backtracking engine (the redos-pattern check):
// the service evaluates JavaScript regular expressions, so `^(a+)+$` in a live rule lets one
// request with 36 `a`s and a `!` keep it busy. The verdict is a ReDoS checker's (`recheck`, run
// by the engine: validate); this module only says which patterns need asking and words the
// finding. Quadratic patterns (any unanchored `.*x` is one, on a backtracking engine searching
// every start position) are too common to be worth a warning and are not reported.
import type { DeclaredRule, Leaf } from '../semantics/model.js';
import { describeField } from '../evaluate/describe.js';
import { leafValues } from '../semantics/fields.js';
import type { Finding } from './checks.js';

/** A `$re` pattern of a rule that a checker must look at. */
interface PatternOfRule {
  rule: DeclaredRule;
  leaf: Leaf;
  pattern: string;
}

/** What the checker found for one pattern: exponential, with an attack string in JavaScript (e.g. `'a'.repeat(31) + '!'`). */
export interface ExponentialPattern {
  attack: string;
}

/**
 * Patterns that can backtrack exponentially only through a repeated group or backreference:
 * a quantifier (`*`, `+`, `{n}` and `{n,m}` with n or m above 1) on a single character or class backtracks
 * at most polynomially. So only patterns with a quantified group or backreference are asked
 * (the checker costs milliseconds to seconds a pattern; test/validate/redos.property.test.ts
 * compares this filter with the checker).
 */
export function mayBeExponential(source: string): boolean {
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const c = source[at];
    if (c === '\\') {
      const escaped = source[at + 1] ?? '';
      at += 1;
      if (!inClass && /[1-9k]/.test(escaped) && repeats(source, at + 1)) return true;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ')' && repeats(source, at + 1)) return true;
  }
  return false;
}

/** Whether a quantifier that can repeat more than once starts at `at`. */
function repeats(source: string, at: number): boolean {
  const c = source[at];
  if (c === '*' || c === '+') return true;
  const bounds = /^\{([0-9]+)(,([0-9]*))?\}/.exec(source.slice(at));
  if (bounds === null) return false;
  if (bounds[2] === undefined) return Number(bounds[1]) > 1;
  return bounds[3] === '' || Number(bounds[3]) > 1;
}

/** The distinct `$re` patterns of the active and paused rules that need the checker, each with every rule using it. */
export function patternsToCheck(rules: readonly DeclaredRule[]): PatternOfRule[] {
  const found: PatternOfRule[] = [];
  for (const rule of rules) {
    for (const group of rule.conditions.children) {
      for (const leaf of group.children) {
        if (leaf.operator !== '$re') continue;
        for (const pattern of leafValues(leaf)) {
          if (mayBeExponential(pattern) && compiles(pattern)) found.push({ rule, leaf, pattern });
        }
      }
    }
  }
  return found;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

export function redosFinding({ rule, leaf, pattern }: PatternOfRule, { attack }: ExponentialPattern): Finding {
  return {
    check: 'redos-pattern', severity: 'warning', file: rule.source.file, line: rule.source.line, col: rule.source.col,
    message: `rule ${JSON.stringify(rule.name)}: pattern ${JSON.stringify(pattern)} of ${describeField(leaf)} $re can take exponential time on a backtracking engine such as the service's (for example on ${attack}); rewrite it without a repeated group that can match the same text in more than one way`,
  };
}

/** A pattern the checker gave no verdict on: said, never passed over as safe. */
export function redosUnchecked({ rule, leaf, pattern }: PatternOfRule, why: string): Finding {
  return {
    check: 'redos-pattern', severity: 'warning', file: rule.source.file, line: rule.source.line, col: rule.source.col,
    message: `rule ${JSON.stringify(rule.name)}: pattern ${JSON.stringify(pattern)} of ${describeField(leaf)} $re was not checked for exponential time: ${why}`,
  };
}
