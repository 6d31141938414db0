// The groups of ways of matching that no request matches across (changed-parts.ts): a rule
// whose conditions are an `$or` of groups matches by any of them, and each such way is placed on
// its own, so a rule may fall into several groups (one host per way, say) and be searched in
// each with only its ways there. Ways that require texts of one field that cannot meet
// (required-texts.ts) are in separate groups; ways linked through texts that meet are one.
import type { Conditions, NormalRule } from '../semantics/model.js';
import { conditionsTexts, groupTexts, textsDisjoint, type RequiredTexts, type Texts } from './required-texts.js';

/** One way a rule can match: a group of its root `$or` (`way` its index), or the whole rule (`way` -1). */
export interface Way {
  readonly rule: number;
  readonly way: number;
  readonly texts: RequiredTexts;
}

/** Ways compared at most to leave out stable ways of one group (beyond it, the group keeps them all). */
const MAX_PAIRS = 1_000_000;

export function waysApart(rule: NormalRule, number: number): Way[] {
  const { conditions } = rule;
  if (conditions.operator !== '$or' || conditions.children.length < 2) return [{ rule: number, way: -1, texts: conditionsTexts(conditions) }];
  return conditions.children.map((group, way) => ({ rule: number, way, texts: groupTexts(group) }));
}

/**
 * Splits ways into groups no request matches across: by a field every way of the group
 * requires, ways whose texts cannot meet in separate groups; then each group by another such
 * field.
 */
export function overlapGroups(ways: readonly Way[], tried: ReadonlySet<string> = new Set()): Way[][] {
  const counts = new Map<string, number>();
  for (const way of ways) for (const field of way.texts.keys()) counts.set(field, (counts.get(field) ?? 0) + 1);
  for (const [field, count] of counts) {
    if (count < ways.length || tried.has(field)) continue;
    const split = byField(ways, field);
    if (split.length > 1) return split.flatMap((group) => overlapGroups(group, new Set([...tried, field])));
  }
  return [[...ways]];
}

/** The group without the stable ways that can match no request a changed way of it matches. */
export function relevantWays(group: readonly Way[], changed: Uint8Array): Way[] {
  const changedWays = group.filter((way) => changed[way.rule] === 1);
  if (changedWays.length === 0 || changedWays.length * group.length > MAX_PAIRS) return [...group];
  // A changed way that requires nothing can match a request of any other: every way is kept, without comparing pairs.
  if (changedWays.some((way) => way.texts.size === 0)) return [...group];
  return group.filter((way) => changed[way.rule] === 1 || changedWays.some((other) => !textsDisjoint(way.texts, other.texts)));
}

/**
 * Per rule, its narrowed copies by the ways they keep: the same copy for every search of a plan
 * (the diff's and the transition check's), so what a search works out once per rule object
 * (entries.ts) is worked out once for it too.
 */
const NARROWED = new WeakMap<NormalRule, Map<string, NormalRule>>();

/** The rule as searched in a part holding `kept` of its ways (in order): itself when it holds them all. */
export function narrowedRule(rule: NormalRule, kept: readonly number[]): NormalRule {
  if (kept.includes(-1) || kept.length === rule.conditions.children.length) return rule;
  let copies = NARROWED.get(rule);
  if (copies === undefined) NARROWED.set(rule, (copies = new Map()));
  const key = kept.join();
  let copy = copies.get(key);
  if (copy === undefined) {
    const conditions: Conditions = { operator: '$or', children: kept.map((way) => rule.conditions.children[way] as Conditions['children'][number]) };
    copies.set(key, (copy = { ...rule, conditions }));
  }
  return copy;
}

function byField(ways: readonly Way[], field: string): Way[][] {
  const sets = new TextSets();
  const keys = ways.map((way) => keysOf(way.texts.get(field) as Texts));
  for (const ofWay of keys) sets.join(ofWay);
  sets.joinMeeting();
  const byRoot = new Map<string, Way[]>();
  ways.forEach((way, index) => {
    const [key] = keys[index] as readonly string[];
    // A way that allows no text at all matches nothing: a group of its own.
    const root = key === undefined ? `\u0000${index}` : sets.root(key);
    const group = byRoot.get(root);
    if (group === undefined) byRoot.set(root, [way]);
    else group.push(way);
  });
  return [...byRoot.values()];
}

/** Worked out once per texts (required-texts.ts keeps them per tree): every search of a plan groups the same ways. */
const KEYS = new WeakMap<Texts, readonly string[]>();

function keysOf(texts: Texts): readonly string[] {
  let keys = KEYS.get(texts);
  if (keys === undefined) KEYS.set(texts, (keys = [...[...texts.exact].map((text) => `=${text}`), ...[...texts.prefix].map((text) => `<${text}`), ...[...texts.suffix].map((text) => `>${text}`)]));
  return keys;
}

/** Union-find over texts (keyed by kind and text), joined where a value could carry both. */
class TextSets {
  private readonly parent = new Map<string, string>();

  root(key: string): string {
    let root = key;
    for (let up = this.parent.get(root); up !== undefined && up !== root; up = this.parent.get(root)) root = up;
    this.parent.set(key, root);
    return root;
  }

  join(keys: readonly string[]): void {
    const [first, ...rest] = keys;
    if (first === undefined) return;
    if (!this.parent.has(first)) this.parent.set(first, first);
    const root = this.root(first);
    for (const key of rest) this.parent.set(this.root(key), root);
  }

  /**
   * Texts a value could carry together joined: an exact value or a longer prefix (suffix) with
   * each prefix (suffix) it starts (ends) with; and every prefix with every suffix.
   */
  joinMeeting(): void {
    const keys = [...this.parent.keys()];
    const has = (key: string) => this.parent.has(key);
    for (const key of keys) {
      const [kind, text] = [key[0], key.slice(1)];
      for (let length = 1; length <= text.length; length += 1) {
        if (kind !== '>' && (length < text.length || kind === '=') && has(`<${text.slice(0, length)}`)) this.join([key, `<${text.slice(0, length)}`]);
        if (kind !== '<' && (length < text.length || kind === '=') && has(`>${text.slice(text.length - length)}`)) this.join([key, `>${text.slice(text.length - length)}`]);
      }
    }
    const affixes = keys.filter((key) => key[0] !== '=');
    if (affixes.some((key) => key[0] === '<') && affixes.some((key) => key[0] === '>')) this.join(affixes);
  }
}
