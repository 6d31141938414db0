// The index of a compiled rule set (compiled.ts): each rule gets guards, leaves that every
// request it matches must satisfy and that a map lookup can test (`path $eq`, `country $in`,
// `header x $exists`, `path $startsWith`, `path $endsWith`, `userAgent $contains`, a `$re` whose
// every match holds a text, `socketIps $in` ranges; rule-guards.ts), and is listed under each
// guard's value. A request's values then select the rules worth trying; the rules without a
// guard are tried for every request.
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import { interruptions } from '../evaluate/pattern.js';
import { answersNo, type BudgetedLeaf } from '../evaluate/program-verdicts.js';
import type { Leaf, NormalRule } from '../semantics/model.js';
import { fieldName } from '../semantics/fields.js';
import { AddressBlocks } from './address-blocks.js';
import { CONTAINS_KEY, guardsOf, type BudgetedOf, type Guard } from './rule-guards.js';

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
  bySuffix: Map<string, number[]>;
  suffixLengths: number[];
  /** Rules by the last CONTAINS_KEY characters (or fewer) of a text the value must hold. */
  byContained: Map<string, number[]>;
  containedLengths: number[];
  /** Rules whose contained text comes from a pattern: all tried for a value with a surrogate. */
  byPattern: number[];
  /** Rules with a budgeted pattern guard, ascending, and the ones a recent value selected. */
  byBudgeted: { patterns: BudgetedLeaf; position: number }[];
  budgetedCache: Map<string, readonly number[]>;
  /** interruptions() when budgetedCache was filled (see evaluate/program-verdicts.ts). */
  budgetedInterruptions: number;
  /** The contained-text lists a recent value selected: values such as user agents repeat. */
  containedCache: Map<string, (readonly number[])[]>;
  /** Rules by the address blocks they hold (socketIps ranges). */
  addresses: AddressBlocks | undefined;
}
/** Values whose contained-text lists are remembered per table, before the memory is cleared. */
const CONTAINED_CACHE = 4096;
const SURROGATE = /[\ud800-\udfff]/;

interface RuleIndex {
  tables: Tables;
  /** Positions of the rules without a guard, ascending. */
  unguarded: number[];
}

/** The index of the rules at `positions` (ascending) of `rules`. */
export function indexRules(rules: readonly NormalRule[], positions: readonly number[], budgetedOf: BudgetedOf = () => undefined): RuleIndex {
  const indexes = new Map<string, FieldIndex>();
  const unguarded: number[] = [];
  const guardsByPosition = guardsOf(rules, positions, budgetedOf);
  for (const position of positions) {
    const guards = guardsByPosition.get(position);
    if (guards === undefined) unguarded.push(position);
    else for (const [leaf, guard] of guards) register(indexes, leaf, guard, position);
  }
  return { tables: tablesOf(indexes), unguarded };
}

/**
 * The tables split by how a request is looked up in them: a plain field (path, country…) is
 * read once per table; headers, query and custom parameters are looked up by the names the
 * request carries, so a thousand rules about a thousand header names cost a few lookups.
 */
interface Tables {
  plain: FieldIndex[];
  header: Map<string, FieldIndex>;
  queryParam: Map<string, FieldIndex>;
  customParam: Map<string, FieldIndex>;
}

function tablesOf(indexes: ReadonlyMap<string, FieldIndex>): Tables {
  const tables: Tables = { plain: [], header: new Map(), queryParam: new Map(), customParam: new Map() };
  for (const table of indexes.values()) {
    const { conditionType } = table.reader;
    if (conditionType === 'header') tables.header.set(fieldName(table.reader).toLowerCase(), table);
    else if (conditionType === 'queryParam' || conditionType === 'customParam') tables[conditionType].set(fieldName(table.reader), table);
    else tables.plain.push(table);
  }
  return tables;
}

/** The lists of rule positions a request's values select (each ascending), and the unguarded rules, in `found`. */
export function listsOf({ tables, unguarded }: RuleIndex, request: TestRequest, found: (readonly number[])[]): (readonly number[])[] {
  found.length = 0;
  found.push(unguarded);
  for (const table of tables.plain) collect(found, table, fieldOf(request, table.reader));
  if (request.headers !== undefined && tables.header.size > 0) {
    for (const name of Object.keys(request.headers)) {
      const table = tables.header.get(name.toLowerCase());
      // The evaluator's reading of the header, so repeated spellings of a name resolve alike.
      if (table !== undefined) collect(found, table, fieldOf(request, table.reader));
    }
  }
  for (const kind of ['queryParam', 'customParam'] as const) {
    const carried = kind === 'queryParam' ? request.query : request.custom;
    if (carried === undefined || tables[kind].size === 0) continue;
    for (const name of Object.keys(carried)) {
      const table = tables[kind].get(name);
      if (table !== undefined) collect(found, table, carried[name]);
    }
  }
  return found;
}

/** The rules of one table that a request's value selects. */
function collect(found: (readonly number[])[], table: FieldIndex, value: string | undefined): void {
  if (value === undefined) return;
  if (table.present.length > 0) found.push(table.present);
  const byValue = table.byValue.get(value);
  if (byValue !== undefined) found.push(byValue);
  for (const length of table.prefixLengths) {
    if (length > value.length) break;
    const byPrefix = table.byPrefix.get(value.slice(0, length));
    if (byPrefix !== undefined) found.push(byPrefix);
  }
  for (const length of table.suffixLengths) {
    if (length > value.length) break;
    const bySuffix = table.bySuffix.get(value.slice(value.length - length));
    if (bySuffix !== undefined) found.push(bySuffix);
  }
  if (table.containedLengths.length > 0) for (const list of containedLists(table, value)) found.push(list);
  if (table.byBudgeted.length > 0) found.push(budgetedList(table, value));
  table.addresses?.select(value, found);
}

/** The rules whose budgeted patterns did not all answer "no" for the value (an unfinished run answers nothing). */
function budgetedList(table: FieldIndex, value: string): readonly number[] {
  if (table.budgetedInterruptions !== interruptions()) {
    table.budgetedCache.clear();
    table.budgetedInterruptions = interruptions();
  }
  const list = table.budgetedCache.get(value);
  if (list !== undefined) return list;
  const selected: number[] = [];
  for (const { patterns, position } of table.byBudgeted) {
    if (selected[selected.length - 1] !== position && !answersNo(patterns, value)) selected.push(position);
  }
  if (table.budgetedCache.size >= CONTAINED_CACHE) table.budgetedCache.clear();
  table.budgetedCache.set(value, selected);
  return selected;
}

/** The rules of a table whose contained text's key occurs in the value (a superset of those whose text does). */
function containedLists(table: FieldIndex, value: string): (readonly number[])[] {
  let lists = table.containedCache.get(value);
  if (lists !== undefined) return lists;
  const selected = new Set<readonly number[]>();
  // A pattern run on a text with a surrogate may run out of its time budget: undecided, not false.
  if (table.byPattern.length > 0 && SURROGATE.test(value)) selected.add(table.byPattern);
  for (const length of table.containedLengths) {
    for (let at = 0; at + length <= value.length; at++) {
      const list = table.byContained.get(value.slice(at, at + length));
      if (list !== undefined) selected.add(list);
    }
  }
  lists = [...selected];
  if (table.containedCache.size >= CONTAINED_CACHE) table.containedCache.clear();
  table.containedCache.set(value, lists);
  return lists;
}

function register(indexes: Map<string, FieldIndex>, leaf: Leaf, guard: Guard, position: number): void {
  let table = indexes.get(guard.field);
  if (table === undefined) {
    const reader: Leaf = { conditionType: leaf.conditionType, operator: '$exists', ...(leaf.fieldOption === undefined ? {} : { fieldOption: leaf.fieldOption }) };
    table = {
      reader, byValue: new Map(), present: [], byPrefix: new Map(), prefixLengths: [], bySuffix: new Map(), suffixLengths: [],
      byContained: new Map(), containedLengths: [], byPattern: [], containedCache: new Map(), byBudgeted: [], budgetedCache: new Map(), budgetedInterruptions: interruptions(),
      addresses: undefined,
    };
    indexes.set(guard.field, table);
  }
  if (guard.kind === 'present') table.present.push(position);
  else if (guard.kind === 'value') for (const value of new Set(guard.values)) listOf(table.byValue, value).push(position);
  else if (guard.kind === 'prefix') addKeyed(table.byPrefix, table.prefixLengths, guard.prefix, position);
  else if (guard.kind === 'budgeted') table.byBudgeted.push({ patterns: guard.patterns, position });
  else if (guard.kind === 'suffix') addKeyed(table.bySuffix, table.suffixLengths, guard.suffix, position);
  else if (guard.kind === 'range') (table.addresses ??= new AddressBlocks()).add(guard.ranges, position);
  else {
    for (const key of new Set(guard.texts.map((text) => text.slice(-CONTAINS_KEY)))) addKeyed(table.byContained, table.containedLengths, key, position);
    if (guard.pattern) table.byPattern.push(position);
  }
}

/** Lists position under key, and the key's length among the (ascending) lengths to try. */
function addKeyed(map: Map<string, number[]>, lengths: number[], key: string, position: number): void {
  const list = listOf(map, key);
  // A rule with two texts of one key is listed once (lists stay ascending and distinct).
  if (list[list.length - 1] !== position) list.push(position);
  if (!lengths.includes(key.length)) lengths.push(key.length);
  lengths.sort((a, b) => a - b);
}

function listOf(map: Map<string, number[]>, key: string): number[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, list = []);
  return list;
}
