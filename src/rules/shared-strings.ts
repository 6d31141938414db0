// The rules read from rule files hold one copy of each distinct string. The YAML reader's
// strings are slices of a file's text (each would keep that whole text alive), and every rule
// repeats the same few dozen operators, field names, actions and values: 5,000 rules held some
// 200,000 strings, most of them copies of 40,000, all alive through the plan's analyses, whose
// peak memory grows with what is alive when they start (bench/README.md, "Plan and apply
// (whole process)").

/** The copies made so far, by value: one table for all the rule files a command reads. */
export class SharedStrings {
  private readonly copies = new Map<string, string>();

  /** The one copy of `text`: made on first sight, a string of its own (never a slice of the text it came from). */
  copyOf(text: string): string {
    const known = this.copies.get(text);
    if (known !== undefined) return known;
    // structuredClone writes the characters out and reads them into a new string.
    const copy = structuredClone(text);
    this.copies.set(copy, copy);
    return copy;
  }
}

/**
 * A copy of `value` (a rule as the normaliser returns it: plain objects, arrays and JSON
 * scalars) whose strings, object keys aside, are the table's copies. Anything else is copied by
 * structuredClone, keeping its own strings.
 */
export function withSharedStrings<T>(value: T, strings: SharedStrings): T {
  return copied(value, strings) as T;
}

function copied(value: unknown, strings: SharedStrings): unknown {
  if (typeof value === 'string') return strings.copyOf(value);
  if (typeof value !== 'object' || value === null) return value;
  // map() makes the array the size of what it holds; pushed one by one, each array had room for
  // seventeen items: 2.9 of the 30 MB a plan of the `networks` benchmark shape holds when its
  // analyses start, each MB of which raises the heap's first limit in them by some 4 MB
  // (bench/README.md, "Where `networks`' peak RSS comes from").
  if (Array.isArray(value)) return value.map((item: unknown) => copied(item, strings));
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copied((value as Record<string, unknown>)[key], strings);
    // An assignment to `__proto__` would set the prototype, not a key of the rule.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
