// Fields the tool does not know are data, not noise (docs/behaviour.md, "Unknown fields"): a
// rule, its condition tree, a group or a leaf may carry fields the console or a newer API
// version added (a leaf's `caseSensitive: true`). The normal form keeps them as own
// properties beside the known ones; equality and the canonical key never look at them; and a
// `conditions` body carries each live part's fields unchanged when that part stays.
import type { Conditions, Group, Leaf } from './model.js';

/**
 * The fields botrules knows at each level of a rule (docs/service-api.md, "Custom rule",
 * "Condition tree"). `source` is where a declared rule is written: the tool's own field, so
 * a live top-level field of that name is not carried into files (it stays on the server); so
 * are `mode` and `shadowSince`, the files' own words for shadow rules (docs/replay.md, "Shadow rules"),
 * and `activeFrom` and `expires`, a rule's lifetime (lifetime.ts), which are never sent.
 */
export const KNOWN_FIELDS = {
  rule: ['name', 'ruleId', 'description', 'status', 'actions', 'conditions', 'priority', 'source', 'mode', 'shadowSince', 'shadow', 'activeFrom', 'expires', 'lifetime'],
  tree: ['operator', 'children'],
  leaf: ['conditionType', 'operator', 'value', 'fieldOption'],
} as const;

export type Level = keyof typeof KNOWN_FIELDS;

const KNOWN: Record<Level, ReadonlySet<string>> = {
  rule: new Set(KNOWN_FIELDS.rule),
  tree: new Set(KNOWN_FIELDS.tree),
  leaf: new Set(KNOWN_FIELDS.leaf),
};

/** A field of a live part that a change would remove: where (in the live rule) and which. */
export interface UnknownFieldDrop {
  /** `conditions`, `conditions.children[1]`, `conditions.children[1].children[0]`: the live part. */
  path: string;
  field: string;
}

/** The names of the fields of `value` botrules does not know at `level`, in written order. */
export function unknownFieldNames(value: object, level: Level): string[] {
  return Object.keys(value).filter((key) => !KNOWN[level].has(key));
}

/** The unknown fields of `value` as a fresh object (values deep-copied). */
export function unknownFields(value: object, level: Level): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of unknownFieldNames(value, level)) setOwn(out, key, structuredClone((value as Record<string, unknown>)[key]));
  return out;
}

/**
 * Copies the unknown fields of `from` onto `to` as own properties. Defined, not assigned: a
 * field named `__proto__` in a server's JSON stays a field and never becomes a prototype.
 */
export function withUnknownFields<T extends object>(to: T, from: object, level: Level): T {
  for (const key of unknownFieldNames(from, level)) setOwn(to, key, structuredClone((from as Record<string, unknown>)[key]));
  return to;
}

function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** What to send as `conditions`, and the live fields that sending it removes. */
interface CarriedConditions {
  conditions: Conditions;
  drops: UnknownFieldDrop[];
}

/**
 * The `conditions` body that makes the live tree say what `declared` says while keeping every
 * unknown field of a live part that stays: the root always stays; a declared group stays as
 * the live group it shares the most leaves with (an equal group first), a declared leaf as
 * the equal leaf of its group's live counterpart. A part that stays takes the live part's
 * unknown fields unchanged; a new part takes the ones written in the file. Every unknown
 * field of a live part that does not stay is a drop. `keyOf` is the canonical key of a leaf.
 */
export function carryUnknownFields(declared: Conditions, live: Conditions, keyOf: (leaf: Leaf) => string): CarriedConditions {
  const drops: UnknownFieldDrop[] = [];
  const liveGroups = live.children.map((group, index) => ({ group, index, keys: group.children.map(keyOf) }));
  const pairs = pairGroups(declared.children.map((group) => group.children.map(keyOf)), liveGroups.map((g) => g.keys));
  const children = declared.children.map((group, d) => {
    const paired = pairs.get(d);
    const partner = paired === undefined ? undefined : liveGroups[paired];
    return partner === undefined ? knownTree(group, group) : carryGroup(group, partner.group, `conditions.children[${partner.index}]`, keyOf, drops);
  });
  const stayed = new Set(pairs.values());
  liveGroups.forEach(({ group, index }) => {
    if (!stayed.has(index)) drops.push(...dropsOfGroup(group, `conditions.children[${index}]`));
  });
  const conditions = withUnknownFields({ operator: declared.operator, children } as Conditions, live, 'tree');
  return { conditions, drops: drops.sort(byPath) };
}

function carryGroup(declared: Group, live: Group, path: string, keyOf: (leaf: Leaf) => string, drops: UnknownFieldDrop[]): Group {
  const unpaired = new Map<string, number[]>();
  live.children.forEach((leaf, index) => {
    const key = keyOf(leaf);
    unpaired.set(key, [...(unpaired.get(key) ?? []), index]);
  });
  const children = declared.children.map((leaf) => {
    const index = unpaired.get(keyOf(leaf))?.shift();
    return index === undefined ? knownLeaf(leaf, leaf) : knownLeaf(leaf, live.children[index] as Leaf);
  });
  for (const indexes of unpaired.values()) {
    for (const index of indexes) drops.push(...dropsOf(live.children[index] as Leaf, 'leaf', `${path}.children[${index}]`));
  }
  return withUnknownFields({ operator: declared.operator, children } as Group, live, 'tree');
}

/** The group's known fields and the unknown fields of `fieldsFrom` (the group itself when it is new). */
function knownTree(group: Group, fieldsFrom: Group): Group {
  return withUnknownFields({ operator: group.operator, children: group.children.map((leaf) => knownLeaf(leaf, leaf)) } as Group, fieldsFrom, 'tree');
}

function knownLeaf(leaf: Leaf, fieldsFrom: Leaf): Leaf {
  const out: Leaf = { conditionType: leaf.conditionType, operator: leaf.operator };
  if (leaf.value !== undefined) out.value = Array.isArray(leaf.value) ? [...leaf.value] : leaf.value;
  if (leaf.fieldOption !== undefined) out.fieldOption = leaf.fieldOption;
  return withUnknownFields(out, fieldsFrom, 'leaf');
}

function dropsOfGroup(group: Group, path: string): UnknownFieldDrop[] {
  return [...dropsOf(group, 'tree', path), ...group.children.flatMap((leaf, index) => dropsOf(leaf, 'leaf', `${path}.children[${index}]`))];
}

function dropsOf(part: object, level: Level, path: string): UnknownFieldDrop[] {
  return unknownFieldNames(part, level).map((field) => ({ path, field }));
}

/**
 * Declared group index → live group index: equal leaf sets first, then the live group sharing
 * the most leaves (at least one), each live group at most once, declared groups in order.
 */
function pairGroups(declared: readonly string[][], live: readonly string[][]): Map<number, number> {
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
    const left = new Set(a);
    const right = new Set(b);
    return left.size === right.size && [...left].every((key) => right.has(key));
  };
  declared.forEach((keys, d) => {
    const equal = live.findIndex((other, l) => !taken.has(l) && sameSet(keys, other));
    if (equal !== -1) {
      pairs.set(d, equal);
      taken.add(equal);
    }
  });
  declared.forEach((keys, d) => {
    if (pairs.has(d)) return;
    const wanted = new Set(keys);
    let best = -1;
    let bestShared = 0;
    live.forEach((other, l) => {
      if (taken.has(l)) return;
      const shared = new Set(other.filter((key) => wanted.has(key))).size;
      if (shared > bestShared) {
        best = l;
        bestShared = shared;
      }
    });
    if (best !== -1) {
      pairs.set(d, best);
      taken.add(best);
    }
  });
  return pairs;
}

function byPath(a: UnknownFieldDrop, b: UnknownFieldDrop): number {
  return a.path.localeCompare(b.path, 'en', { numeric: true }) || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}
