// The one way botrules counts things in a sentence: "1 rule", "3 rules", "1 PATCH request".
// It lies at the bottom of the layers (docs/design.md, "Layering") so that every layer that
// writes a sentence, from the inventory to the CLI, says counts the same way.

/** `count` and the noun, plural unless the count is exactly 1; `many` for irregular nouns. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The noun alone, as `plural` would choose it: "app" or "apps" before a list of names. */
export function noun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}
