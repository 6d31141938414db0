// The compiled rule sets (semantics/program.ts) as SQL (docs/replay.md, "Where the traffic
// lives"): each set a CASE over its reachable rules in priority order, the first whose tree is
// TRUE deciding and a NULL (undecided) tree leaving the outcome undecided, as the evaluator's
// decide() does. A decision is a number: the deciding rule's position, -1 for no rule, and
// -2 - position for a rule whose match is undecided.
import type { NormalRule } from '../../semantics/model.js';
import type { ProgramSet, RuleProgram } from '../../semantics/program.js';
import { outcomeKind } from '../tally.js';
import type { Dialect } from './dialects.js';
import { addressSelect, IPV6_COLUMN } from './addresses.js';
import { leafSql, type Fallbacks, type LeafContext, type LeafSql } from './leaves.js';

export const NO_RULE = -1;

/** A decision number's rule position and whether its match was undecided; undefined for no rule. */
export function decisionOf(code: number): { position: number; undecided: boolean } | undefined {
  if (code === NO_RULE) return undefined;
  return code >= 0 ? { position: code, undecided: false } : { position: -2 - code, undecided: true };
}

interface DecisionColumns {
  /**
   * One SQL expression per distinct leaf, to be selected as `l0`, `l1`, … in a subquery: each
   * leaf is evaluated once per row, however many trees and sets hold it (as the js engine does).
   */
  leaves: string[];
  /** One SQL expression per rule set over the leaf columns: its decision number for the row. */
  columns: string[];
  /** What the dialect leaves undecided (empty with fallbacks). */
  notes: string[];
}

export function decisionColumns(program: RuleProgram<NormalRule>, dialect: Dialect, fallbacks?: Fallbacks): DecisionColumns {
  const ctx: LeafContext = { dialect, notes: new Set(), ...(fallbacks === undefined ? {} : { fallbacks }) };
  const leaves = program.leaves.map((leaf) => leafSql(leaf, ctx));
  const columns = leaves.map((leaf, id): LeafSql => ({ sql: `l${id}`, undecided: leaf.undecided }));
  const trees = program.trees.map((tree): LeafSql => {
    const groups = tree.groups.map((group) => combine(group.all, [...group.leaves].map((id) => columns[id] as LeafSql)));
    return combine(tree.all, groups);
  });
  return { leaves: leaves.map((leaf) => leaf.sql), columns: program.sets.map((set) => decisionSql(set, trees)), notes: [...ctx.notes] };
}

/** `SELECT <extra>, each leaf AS l0, l1, … FROM <source>`: the rows with their leaves' verdicts. */
export function leafSelect(leaves: readonly string[], source: string, dialect: Dialect, extra = ''): string {
  const selected = [...(extra === '' ? [] : [extra]), ...leaves.map((leaf, id) => `${leaf} AS l${id}`)];
  // The IPv6 columns cost string work on every row: only where an address leaf reads them.
  const ipv6 = leaves.some((leaf) => leaf.includes(IPV6_COLUMN));
  return `SELECT ${selected.length === 0 ? '1 AS one' : selected.join(', ')} FROM (${addressSelect(source, dialect, ipv6)}) AS addressed`;
}

/** `$and` of nothing is TRUE, `$or` of nothing FALSE, as the evaluator's combine(). */
function combine(all: boolean, parts: readonly LeafSql[]): LeafSql {
  if (parts.length === 0) return { sql: all ? 'TRUE' : 'FALSE', undecided: false };
  return { sql: `(${parts.map((part) => part.sql).join(all ? ' AND ' : ' OR ')})`, undecided: parts.some((part) => part.undecided) };
}

function decisionSql(set: ProgramSet<NormalRule>, trees: readonly LeafSql[]): string {
  if (set.reachable.length === 0) return String(NO_RULE);
  const branches = set.reachable.map((position) => {
    const tree = trees[set.treeOf[position] as number] as LeafSql;
    // A tree that cannot be NULL needs no second look.
    return `WHEN ${tree.sql} THEN ${position}${tree.undecided ? ` WHEN (${tree.sql}) IS NULL THEN ${-2 - position}` : ''}`;
  });
  return `CASE ${branches.join(' ')} ELSE ${NO_RULE} END`;
}

export interface EmittedQuery {
  sql: string;
  notes: string[];
}

/**
 * One query over `table` returning a row per live_rule, live_outcome, declared_rule,
 * declared_outcome with the count of requests (docs/replay.md, "Where the traffic lives"). A rule whose match is undecided
 * is named with the outcome `undecided`; no rule is NULL with `none`.
 */
export function replayQuery(program: RuleProgram<NormalRule>, dialect: Dialect, table: string): EmittedQuery {
  const { leaves, columns, notes } = decisionColumns(program, dialect);
  const [live, declared] = program.sets;
  if (live === undefined || declared === undefined) throw new Error('a replay query compares two rule sets');
  const header = [
    '-- botrules replay --emit-sql: requests by the rule and outcome that decide them under the live and the declared rules.',
    `-- Dialect: ${dialect.name}. Columns: path, method, userAgent, ip, asn, country, domain, deviceType (${dialect.textType}, NULL when absent); headers (names lower-case), query, custom (${dialect.mapType}).`,
    ...(notes.length === 0 ? ['-- Every leaf is decided exactly in this dialect.'] : ['-- Not decided exactly in this dialect (such requests count as undecided):', ...notes.map((note) => `--   ${commentText(note)}`)]),
  ];
  const decided = `SELECT ${columns[0]} AS live, ${columns[1]} AS declared FROM (${leafSelect(leaves, tableName(table, dialect), dialect)}) AS leaves`;
  const body = [
    `SELECT ${ruleName(live, 'live', dialect)} AS live_rule, ${outcome(live, 'live')} AS live_outcome,`,
    `  ${ruleName(declared, 'declared', dialect)} AS declared_rule, ${outcome(declared, 'declared')} AS declared_outcome,`,
    '  COUNT(*) AS requests',
    `FROM (${decided}) AS decided`,
    'GROUP BY 1, 2, 3, 4',
    'ORDER BY requests DESC, 1, 3',
  ];
  return { sql: `${[...header, ...body].join('\n')};\n`, notes };
}

/** The rule a decision number names (undecided ones too), NULL for no rule. */
function ruleName(set: ProgramSet<NormalRule>, column: string, dialect: Dialect): string {
  if (set.reachable.length === 0) return 'NULL';
  return `CASE ${set.reachable.map((at) => `WHEN ${column} IN (${at}, ${-2 - at}) THEN ${dialect.text((set.rules[at] as NormalRule).name)}`).join(' ')} END`;
}

function outcome(set: ProgramSet<NormalRule>, column: string): string {
  const byOutcome = new Map<string, number[]>();
  for (const at of set.reachable) {
    const kind = outcomeKind((set.rules[at] as NormalRule).actions);
    byOutcome.set(kind, [...(byOutcome.get(kind) ?? []), at]);
  }
  const branches = [...byOutcome].map(([kind, positions]) => `WHEN ${column} IN (${positions.join(', ')}) THEN '${kind}'`);
  return `CASE WHEN ${column} = ${NO_RULE} THEN 'none' WHEN ${column} < -1 THEN 'undecided' ${branches.join(' ')} END`;
}

/** A table name as given, each dotted part quoted (`logs.requests`, `project.dataset.table`). */
function tableName(table: string, dialect: Dialect): string {
  return table.split('.').map((part) => dialect.identifier(part)).join('.');
}

/** A note on one comment line: no line breaks or control characters. */
function commentText(text: string): string {
  return [...text].map((char) => (isControl(char) ? ' ' : char)).join('');
}

function isControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}
