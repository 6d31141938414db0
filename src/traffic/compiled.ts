// A rule set compiled once for deciding many requests (docs/replay.md, "Throughput"). Each
// active rule gets guards: leaves that every request it matches must satisfy, and that a map
// lookup can test (`path $eq`, `country $in`, `header x $exists`, `path $startsWith`). A
// request is tried, in priority order, only against the rules one of its values selects plus
// the rules without a guard; each candidate is then decided by the reference evaluator
// (src/evaluate/), so the answer is always the reference answer, only found sooner.
import { conditionsMatch, fieldOf, type Decision, type TestRequest } from '../evaluate/index.js';
import type { Group, Leaf, Rule } from '../rules/model.js';

/** A guard: the field a leaf reads and what the request's value must be for the rule to match. */
type Guard =
  | { kind: 'value'; field: string; values: readonly string[] }
  | { kind: 'present'; field: string }
  | { kind: 'prefix'; field: string; prefix: string };

/** Rules by a value of one field: the lookup tables of a compiled rule set. */
interface FieldIndex {
  /** The leaf (without operator and value) that reads the field from a request. */
  reader: Leaf;
  byValue: Map<string, number[]>;
  /** Rules registered as requiring the field to be present. */
  present: number[];
  /** Rules by prefix; `prefixLengths` lists the distinct lengths to try. */
  byPrefix: Map<string, number[]>;
  prefixLengths: number[];
}

export interface CompiledRules<R extends Rule> {
  decide(request: TestRequest): Decision<R>;
}

export function compileRules<R extends Rule>(rules: readonly R[]): CompiledRules<R> {
  const indexes = new Map<string, FieldIndex>();
  const unguarded: number[] = [];
  rules.forEach((rule, position) => {
    if (rule.status !== 'active') return;
    const guards = ruleGuards(rule);
    if (guards === undefined) unguarded.push(position);
    else for (const [leaf, guard] of guards) register(indexes, leaf, guard, position);
  });
  const tables = [...indexes.values()];
  const noMatch: Decision<R> = { rule: undefined, index: -1, actions: [] };
  return {
    decide(request) {
      const candidates = candidatesOf(tables, unguarded, request);
      for (const position of candidates) {
        const rule = rules[position] as R;
        if (conditionsMatch(rule.conditions, request)) return { rule, index: position, actions: [...rule.actions] };
      }
      return noMatch;
    },
  };
}

/** The positions of the rules a request may match, ascending (priority order), without repeats. */
function candidatesOf(tables: readonly FieldIndex[], unguarded: readonly number[], request: TestRequest): number[] {
  const found: number[] = [...unguarded];
  for (const table of tables) {
    const value = fieldOf(request, table.reader);
    if (value === undefined) continue;
    pushAll(found, table.present);
    pushAll(found, table.byValue.get(value));
    for (const length of table.prefixLengths) {
      if (length > value.length) break;
      pushAll(found, table.byPrefix.get(value.slice(0, length)));
    }
  }
  found.sort((a, b) => a - b);
  let kept = 0;
  for (let at = 0; at < found.length; at++) {
    if (at === 0 || found[at] !== found[at - 1]) found[kept++] = found[at] as number;
  }
  found.length = kept;
  return found;
}

function pushAll(into: number[], items: readonly number[] | undefined): void {
  if (items !== undefined) for (const item of items) into.push(item);
}

function register(indexes: Map<string, FieldIndex>, leaf: Leaf, guard: Guard, position: number): void {
  let table = indexes.get(guard.field);
  if (table === undefined) {
    const reader: Leaf = { conditionType: leaf.conditionType, operator: '$exists', ...(leaf.fieldOption === undefined ? {} : { fieldOption: leaf.fieldOption }) };
    table = { reader, byValue: new Map(), present: [], byPrefix: new Map(), prefixLengths: [] };
    indexes.set(guard.field, table);
  }
  if (guard.kind === 'present') table.present.push(position);
  else if (guard.kind === 'value') for (const value of new Set(guard.values)) listOf(table.byValue, value).push(position);
  else {
    listOf(table.byPrefix, guard.prefix).push(position);
    if (!table.prefixLengths.includes(guard.prefix.length)) table.prefixLengths.push(guard.prefix.length);
    table.prefixLengths.sort((a, b) => a - b);
  }
}

function listOf(map: Map<string, number[]>, key: string): number[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, list = []);
  return list;
}

/**
 * Guards of a rule, any one of which a matching request satisfies; undefined when the rule
 * has none (it is tried for every request). An empty list: the rule never matches.
 */
function ruleGuards(rule: Rule): [Leaf, Guard][] | undefined {
  const { operator, children } = rule.conditions;
  const perGroup = children.map(groupGuards);
  if (operator === '$or') return perGroup.some((guards) => guards === undefined) ? undefined : perGroup.flatMap((guards) => guards ?? []);
  // Under $and every group must match: the group with the fewest guards stands for the rule.
  let best: [Leaf, Guard][] | undefined;
  for (const guards of perGroup) if (guards !== undefined && (best === undefined || guards.length < best.length)) best = guards;
  return best;
}

function groupGuards(group: Group): [Leaf, Guard][] | undefined {
  const guarded = group.children.map((leaf) => [leaf, leafGuard(leaf)] as const);
  if (group.operator === '$or') {
    if (guarded.some(([, guard]) => guard === undefined)) return undefined;
    return guarded.map(([leaf, guard]) => [leaf, guard as Guard]);
  }
  // Under $and any leaf must hold: prefer exact values, then prefixes, then presence.
  const rank = { value: 0, prefix: 1, present: 2 } as const;
  let best: [Leaf, Guard] | undefined;
  for (const [leaf, guard] of guarded) if (guard !== undefined && (best === undefined || rank[guard.kind] < rank[best[1].kind])) best = [leaf, guard];
  return best === undefined ? undefined : [best];
}

/**
 * A leaf's guard, when the leaf can only match requests whose value passes a lookup. Addresses
 * compare as addresses (`2001:db8::1` = `2001:0db8::1`), so `socketIps` gets no value guard.
 */
function leafGuard(leaf: Leaf): Guard | undefined {
  const field = fieldKey(leaf);
  const address = leaf.conditionType === 'socketIps';
  switch (leaf.operator) {
    case '$eq': return address || typeof leaf.value !== 'string' ? undefined : { kind: 'value', field, values: [leaf.value] };
    case '$in': return address || !Array.isArray(leaf.value) ? undefined : { kind: 'value', field, values: leaf.value };
    case '$startsWith': return typeof leaf.value === 'string' && leaf.value !== '' ? { kind: 'prefix', field, prefix: leaf.value } : { kind: 'present', field };
    case '$exists': case '$contains': case '$endsWith': case '$re': return { kind: 'present', field };
    default: return undefined;
  }
}

/** One key per field a request carries: header names fold case, parameter names do not. */
function fieldKey(leaf: Leaf): string {
  if (leaf.fieldOption === undefined) return leaf.conditionType;
  const name = leaf.conditionType === 'header' ? leaf.fieldOption.toLowerCase() : leaf.fieldOption;
  return `${leaf.conditionType}\u0000${name}`;
}
