// What a way of matching requires of a field's text, beyond the exact values of
// required-values.ts: one of some exact values, or a value starting (ending) with one of some
// texts — `$startsWith`, `$endsWith`, and a `$re` anchored at the start by literal characters.
// Two ways whose texts of one field cannot meet match no request in common: the overlap test by
// which the search in proportion to the change (changed-parts.ts) splits rules into parts and
// leaves out the rules no changed rule can meet. Sound rather than complete, under either
// evaluation (an analysis may be asked to ignore case): exact values are compared in lower case,
// as required-values.ts does; a prefix or suffix is kept only when ASCII, folded to lower case
// letter by letter (a value that starts with it starts with it folded, whatever follows); a
// pattern is JavaScript's, flags '' or 'i' (evaluate/pattern.ts), and without the `u` flag an
// ASCII letter ignoring case matches only its two ASCII cases, so its literal start holds folded.
import { isAddressLeaf } from '../evaluate/leaf.js';
import { patternStart } from '../evaluate/pattern-literal.js';
import { fieldKey, firstValue, leafValues } from '../semantics/fields.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';
import { disjointBy } from './required-values.js';
import { ASCII, asciiFold } from './tree-guards.js';

/** One of `exact`, or a value starting with one of `prefix`, or ending with one of `suffix`. */
export interface Texts {
  readonly exact: ReadonlySet<string>;
  readonly prefix: ReadonlySet<string>;
  readonly suffix: ReadonlySet<string>;
}

/** Field key (semantics/fields.ts) → the texts one of which it must carry. */
export type RequiredTexts = ReadonlyMap<string, Texts>;

const NOTHING: RequiredTexts = new Map();
const EMPTY: ReadonlySet<string> = new Set();
/** Worked out once per tree: every list searched shares the rule objects (and their groups). */
const OF_GROUP = new WeakMap<Group, RequiredTexts>();
const OF_CONDITIONS = new WeakMap<Conditions, RequiredTexts>();

export function conditionsTexts(conditions: Conditions): RequiredTexts {
  let texts = OF_CONDITIONS.get(conditions);
  if (texts === undefined) OF_CONDITIONS.set(conditions, (texts = combined(conditions.operator, conditions.children.map(groupTexts))));
  return texts;
}

export function groupTexts(group: Group): RequiredTexts {
  let texts = OF_GROUP.get(group);
  if (texts === undefined) OF_GROUP.set(group, (texts = combined(group.operator, group.children.map(leafTexts))));
  return texts;
}

/** True when no request can match both: some field each requires, with no texts that can meet. */
export function textsDisjoint(a: RequiredTexts, b: RequiredTexts): boolean {
  return disjointBy(a, b, textsMeet);
}

/** True when some value can carry a text of each. */
export function textsMeet(a: Texts, b: Texts): boolean {
  if (a.prefix.size > 0 && b.suffix.size > 0) return true;
  if (a.suffix.size > 0 && b.prefix.size > 0) return true;
  for (const value of a.exact) if (b.exact.has(value) || holds(value, b)) return true;
  for (const value of b.exact) if (holds(value, a)) return true;
  for (const start of a.prefix) for (const other of b.prefix) if (start.startsWith(other) || other.startsWith(start)) return true;
  for (const end of a.suffix) for (const other of b.suffix) if (end.endsWith(other) || other.endsWith(end)) return true;
  return false;
}

/** A value (in lower case) starts with a prefix of `texts`, or ends with a suffix of it. */
function holds(value: string, texts: Texts): boolean {
  for (const start of texts.prefix) if (value.startsWith(start)) return true;
  for (const end of texts.suffix) if (value.endsWith(end)) return true;
  return false;
}

function leafTexts(leaf: Leaf): RequiredTexts {
  const texts = isAddressLeaf(leaf) ? undefined : textsOf(leaf);
  return texts === undefined ? NOTHING : new Map([[fieldKey(leaf), texts]]);
}

function textsOf(leaf: Leaf): Texts | undefined {
  switch (leaf.operator) {
    case '$eq': return { exact: new Set([firstValue(leaf).toLowerCase()]), prefix: EMPTY, suffix: EMPTY };
    case '$in': return { exact: new Set(leafValues(leaf).map((value) => value.toLowerCase())), prefix: EMPTY, suffix: EMPTY };
    case '$startsWith': return affix(firstValue(leaf), 'prefix');
    case '$endsWith': return affix(firstValue(leaf), 'suffix');
    case '$re': {
      // Any pattern may match: each must start with literal characters.
      const starts = leafValues(leaf).map(patternStart);
      if (starts.some((start) => start === undefined || !ASCII.test(start))) return undefined;
      return { exact: EMPTY, prefix: new Set((starts as string[]).map(asciiFold)), suffix: EMPTY };
    }
    default: return undefined;
  }
}

function affix(text: string, kind: 'prefix' | 'suffix'): Texts | undefined {
  if (text === '' || !ASCII.test(text)) return undefined;
  const folded = new Set([asciiFold(text)]);
  return kind === 'prefix' ? { exact: EMPTY, prefix: folded, suffix: EMPTY } : { exact: EMPTY, prefix: EMPTY, suffix: folded };
}

/**
 * `$and`: every field any child requires, its texts those every such child allows (narrowed
 * where one side is exact values; else the first child's, which holds too). `$or`: the fields
 * every child requires, with the texts of any of them.
 */
function combined(operator: '$and' | '$or', children: readonly RequiredTexts[]): RequiredTexts {
  if (children.length === 0) return NOTHING;
  const fields = new Map<string, Texts>();
  if (operator === '$and') {
    for (const child of children) {
      for (const [field, texts] of child) {
        const known = fields.get(field);
        fields.set(field, known === undefined ? texts : narrowed(known, texts));
      }
    }
    return fields;
  }
  const [first, ...rest] = children as [RequiredTexts, ...RequiredTexts[]];
  for (const [field, texts] of first) {
    if (!rest.every((child) => child.has(field))) continue;
    const all = [texts, ...rest.map((child) => child.get(field) as Texts)];
    fields.set(field, { exact: union(all.map((one) => one.exact)), prefix: union(all.map((one) => one.prefix)), suffix: union(all.map((one) => one.suffix)) });
  }
  return fields;
}

/** Both `a` and `b` hold: the exact values of one side the other allows, or `a` as it is. */
function narrowed(a: Texts, b: Texts): Texts {
  const onlyExact = (texts: Texts) => texts.prefix.size === 0 && texts.suffix.size === 0;
  const allowed = (values: ReadonlySet<string>, other: Texts) => new Set([...values].filter((value) => other.exact.has(value) || holds(value, other)));
  if (onlyExact(a)) return { exact: allowed(a.exact, b), prefix: EMPTY, suffix: EMPTY };
  if (onlyExact(b)) return { exact: allowed(b.exact, a), prefix: EMPTY, suffix: EMPTY };
  return a;
}

function union(sets: readonly ReadonlySet<string>[]): ReadonlySet<string> {
  return new Set(sets.flatMap((set) => [...set]));
}
