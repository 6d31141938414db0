// One rule file: parse with limits → schema → semantic checks → normalised rules.
// Checks run on every part the schema accepted, so one run reports every problem: a bad
// regex in one leaf is reported even when another leaf of the same rule is malformed.
// Only rules without any problem are normalised and returned.
import type { Document } from 'yaml';
import { sortProblems, type Problem } from '../errors.js';
import type { DeclaredRule, LifetimeBound, RuleLifetime, Status } from '../semantics/model.js';
import { parseInstant, statusAt } from '../semantics/lifetime.js';
import { normaliseRule } from '../semantics/normalise.js';
import { ruleFileMessages } from './rule-messages.js';
import { schemaValidator } from './schemas.js';
import { LEAF_CHECKS, LEAF_WARNINGS } from './checks/leaf-values.js';
import { actionsNonEmptyUnique, priorityIsPosition } from './checks/rule-fields.js';
import { unknownFieldFindings } from './checks/unknown-fields.js';
import type { Located, RuleIdentity } from './checks/unique.js';
import { whereIn } from './checks/where.js';
import type { WrittenLeaf, WrittenRule } from '../semantics/written.js';
import { DEFAULT_MAX_BYTES, decodeUtf8, readSourceText, tooLarge, type SourceText } from '../io/source-text.js';
import { parseYamlText, unreadable, type Path, type YamlSource } from '../io/yaml-source.js';
import { definedFields } from '../defined.js';
import { isObject } from '../io/json-depth.js';
import { SharedStrings, withSharedStrings } from './shared-strings.js';

export interface RuleFileResult {
  /** The rules that passed every check, normalised, in file order. */
  rules: DeclaredRule[];
  /** Name and ruleId of every rule that has them, for the checks across files. */
  identities: RuleIdentity[];
  problems: Problem[];
  /** Things worth knowing that do not stop the file from being used (docs/behaviour.md, "Warnings"). */
  warnings: Problem[];
  /**
   * The file's text when it holds a `botrules-ignore` comment, which silences findings of the
   * rule-set analysis (docs/evaluation.md, "Rule-set analysis"): kept so the analysis need not
   * read the file a second time. Undefined for the many files without one.
   */
  silencingText?: string;
  /** The file as read and parsed, when the caller asked to keep it (import --update edits it). */
  source?: RuleFileSource;
}

/** A rule file's text (without its byte-order mark), whether it had one, and its one parse. */
export interface RuleFileSource {
  text: string;
  bom: boolean;
  document: Document;
}

export interface RuleFileReadOptions {
  /** Keep the text and the parsed document in the result. */
  keepSource?: boolean;
  /**
   * The moment rule lifetimes are evaluated at (`--now`, else the time the command started):
   * outside [activeFrom, expires) a rule is declared paused (semantics/lifetime.ts).
   */
  now: number;
  /** The strings the rules of every file read share (shared-strings.ts); else the file's own table. */
  strings?: SharedStrings;
}

export function readRuleFile(absPath: string, displayPath: string, options: RuleFileReadOptions = { now: Date.now() }): RuleFileResult {
  return fromSourceText(readSourceText(absPath, DEFAULT_MAX_BYTES), displayPath, options);
}

/**
 * The same from bytes in memory (a file at a git revision; the fuzz tests), or the problem of a
 * file of `size` bytes that is over the 1 MiB every rule file is held to, when it was not read.
 */
export function parseRuleFile(bytes: Uint8Array | { size: number }, displayPath: string, now = Date.now()): RuleFileResult {
  const text = bytes instanceof Uint8Array ? (bytes.length > DEFAULT_MAX_BYTES ? tooLarge(bytes.length, DEFAULT_MAX_BYTES) : decodeUtf8(bytes)) : tooLarge(bytes.size, DEFAULT_MAX_BYTES);
  return fromSourceText(text, displayPath, { now });
}

function fromSourceText(text: SourceText, displayPath: string, options: RuleFileReadOptions): RuleFileResult {
  const source = text.ok
    ? parseYamlText(text.text, { displayPath, validate: schemaValidator('rules'), messages: ruleFileMessages, keepDocument: options.keepSource === true })
    : unreadable(displayPath, text.problem);
  const result = checkRuleFile(source, options.now, options.strings ?? new SharedStrings());
  if (text.ok && text.text.includes(SILENCING_MARK)) result.silencingText = text.text;
  if (options.keepSource === true && text.ok && source.document !== undefined) result.source = { text: text.text, bom: text.bom, document: source.document };
  return result;
}

/** What every silencing comment contains (`# botrules-ignore: …`, `# botrules-ignore-file: …`). */
const SILENCING_MARK = 'botrules-ignore';

function checkRuleFile(source: YamlSource, now: number, strings: SharedStrings): RuleFileResult {
  const result: RuleFileResult = { rules: [], identities: [], problems: [...source.problems], warnings: [...source.warnings] };
  const written = isObject(source.value) && Array.isArray(source.value.rules) ? source.value.rules : [];
  written.forEach((rule: unknown, index) => {
    if (!isObject(rule)) return;
    const path: Path = ['rules', index];
    result.identities.push(identityOf(rule, path, source));
    const { problems, warnings } = checkRule(rule, path, source);
    result.problems.push(...problems);
    result.warnings.push(...warnings);
    if (problems.length === 0 && source.isSchemaValid(path)) {
      const declared = normaliseRule(rule as unknown as WrittenRule);
      const lifetime = lifetimeOf(rule, declared.status, path, source);
      // Outside its window a rule is declared paused whatever its status (semantics/lifetime.ts).
      const status = lifetime === undefined ? declared.status : statusAt(lifetime, now);
      // A copy: the parser's strings are slices of the file's text, and each would keep that
      // whole text alive for as long as the rule is (every file's, through the plan's analyses);
      // its strings are the copies all rules share.
      result.rules.push(withSharedStrings({ ...declared, status, source: { file: source.file, ...source.locate(path) }, ...shadowOf(rule, path, source), ...definedFields({ lifetime }) }, strings));
    }
  });
  result.problems = sortProblems(result.problems);
  result.warnings = sortProblems(result.warnings);
  return result;
}

/** For `mode: shadow`: where the mode is written and the file's `shadowSince` (docs/replay.md, "Shadow rules"). */
function shadowOf(rule: Record<string, unknown>, path: Path, source: YamlSource): Pick<DeclaredRule, 'shadow'> {
  if (rule.mode !== 'shadow') return {};
  const at = { file: source.file, ...source.locate([...path, 'mode']) };
  return { shadow: { at, ...(typeof rule.shadowSince === 'string' ? { since: rule.shadowSince } : {}) } };
}

/** A shadow rule is applied paused: `status: active` beside it contradicts it; shadowSince needs it. */
function shadowProblems(rule: Record<string, unknown>, path: Path, source: YamlSource): Problem[] {
  const problems: Problem[] = [];
  if (rule.mode === 'shadow' && rule.status === 'active') {
    problems.push(source.problemAt([...path, 'status'], 'a rule with mode: shadow is applied paused; remove status: active, or promote the rule with mode: active'));
  }
  if (rule.mode !== 'shadow' && rule.shadowSince !== undefined) {
    problems.push(source.problemAt([...path, 'shadowSince'], 'shadowSince is for a rule with mode: shadow; remove it once the rule is promoted'));
  }
  return problems;
}

const LIFETIME_KEYS = ['activeFrom', 'expires'] as const;

/**
 * A lifetime's ends must name real instants, and `expires` must come after `activeFrom`: a
 * window that closes before it opens would leave the rule paused for ever, which a file says
 * more plainly with `status: paused`. The schema has already checked the offset.
 */
function lifetimeProblems(rule: Record<string, unknown>, path: Path, source: YamlSource): Problem[] {
  const problems: Problem[] = [];
  const times = new Map<string, number>();
  for (const key of LIFETIME_KEYS) {
    const text = rule[key];
    if (typeof text !== 'string' || !source.isSchemaValid([...path, key])) continue;
    const time = parseInstant(text);
    if (time === undefined) problems.push(source.problemAt([...path, key], `${key} ${JSON.stringify(text)} is not a real date and time (check the day of the month and the clock)`));
    else times.set(key, time);
  }
  const from = times.get('activeFrom');
  const until = times.get('expires');
  if (from !== undefined && until !== undefined && until <= from) {
    problems.push(source.problemAt([...path, 'expires'], `expires (${String(rule.expires)}) is not after activeFrom (${String(rule.activeFrom)}): the rule would never be active; fix the dates, or write status: paused`));
  }
  return problems;
}

/** The rule's lifetime, when its file gives one; `status` is the status the file declares. */
function lifetimeOf(rule: Record<string, unknown>, status: Status, path: Path, source: YamlSource): RuleLifetime | undefined {
  const bound = (key: (typeof LIFETIME_KEYS)[number]): LifetimeBound | undefined => {
    const time = typeof rule[key] === 'string' ? parseInstant(rule[key]) : undefined;
    return time === undefined ? undefined : { time, at: { file: source.file, ...source.locate([...path, key]) } };
  };
  const activeFrom = bound('activeFrom');
  const expires = bound('expires');
  if (activeFrom === undefined && expires === undefined) return undefined;
  return { status, ...definedFields({ activeFrom, expires }) };
}

function checkRule(rule: Record<string, unknown>, path: Path, source: YamlSource): { problems: Problem[]; warnings: Problem[] } {
  const problems = [...priorityIsPosition(rule, whereIn(source, path)), ...shadowProblems(rule, path, source), ...lifetimeProblems(rule, path, source)];
  const unknown = unknownFieldFindings(rule, whereIn(source, path));
  problems.push(...unknown.problems);
  const warnings: Problem[] = [...unknown.warnings];
  const actionsPath = [...path, 'actions'];
  if (Array.isArray(rule.actions) && source.isSchemaValid(actionsPath)) {
    problems.push(...actionsNonEmptyUnique(rule.actions, whereIn(source, actionsPath)));
  }
  for (const { leaf, leafPath } of leavesOf(rule, path)) {
    if (!source.isSchemaValid(leafPath)) continue;
    const where = whereIn(source, leafPath);
    for (const check of LEAF_CHECKS) problems.push(...check(leaf as WrittenLeaf, where));
    for (const check of LEAF_WARNINGS) warnings.push(...check(leaf as WrittenLeaf, where));
  }
  return { problems, warnings };
}

/** Every leaf the two-level tree shape reaches, whatever else is wrong with the rule. */
function leavesOf(rule: Record<string, unknown>, rulePath: Path): { leaf: unknown; leafPath: Path }[] {
  const root = rule.conditions;
  if (!isObject(root) || !Array.isArray(root.children)) return [];
  return root.children.flatMap((group: unknown, g) => {
    if (!isObject(group) || !Array.isArray(group.children)) return [];
    return group.children.map((leaf: unknown, l) => ({ leaf, leafPath: [...rulePath, 'conditions', 'children', g, 'children', l] }));
  });
}

function identityOf(rule: Record<string, unknown>, path: Path, source: YamlSource): RuleIdentity {
  const located = (key: string): Located<string> | undefined => {
    const value = rule[key];
    if (typeof value !== 'string') return undefined;
    return { value, file: source.file, ...source.locate([...path, key]) };
  };
  const identity: RuleIdentity = {};
  const name = located('name');
  const ruleId = located('ruleId');
  if (name) identity.name = name;
  if (ruleId) identity.ruleId = ruleId;
  return identity;
}
