// A bound on how deeply a JSON file botrules reads may nest, checked in one pass over the text
// before it is parsed: JSON.parse takes tens of seconds over five million nested brackets and
// a validator or a YAML reader would overflow its stack. No file botrules writes nests deeper
// than a dozen levels (a snapshot's rules, their condition groups and leaves). Text that may
// not be JSON at all is parsed through `parseJsonOr`, which says what its absence means, and
// `isObject` tells a parsed object from null and lists.
import type { TextProblem } from './source-text.js';

/** Far above what botrules writes, far below what any reader of it struggles with. */
const MAX_JSON_DEPTH = 64;

/** Where `text` first nests deeper than `maxDepth` arrays and objects, or undefined. Strings are skipped. */
export function jsonTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): TextProblem | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > maxDepth) return { ...lineAndColumn(text, i), message: `nests more than ${maxDepth} levels deep; no file botrules writes comes near that` };
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return undefined;
}

/** 1-based line and column of `offset` in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, col: offset - lastBreak };
}

/** The value of JSON `text`; for text that is not JSON, what `notJson` returns (or throws). */
export function parseJsonOr(text: string, notJson: (error: Error) => unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return notJson(error as Error);
  }
}

/** A JSON object: not null, not a list. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
