// One rule file: parse with limits → schema → semantic checks → normalised rules.
// Checks run on every part the schema accepted, so one run reports every problem: a bad
// regex in one leaf is reported even when another leaf of the same rule is malformed.
// Only rules without any problem are normalised and returned.
// A file is first tried on the fast path (fast-yaml.ts); unless it comes out clean there, it is
// read again on the slow path, which alone words and locates problems, so the result is the same.
import { sortProblems, type Problem } from '../errors.js';
import type { DeclaredRule } from './model.js';
import { normaliseRule } from './normalise.js';
import { ruleFileMessages } from './rule-messages.js';
import { schemaValidator } from './schemas.js';
import { LEAF_CHECKS } from './checks/leaf-values.js';
import { actionsNonEmptyUnique, priorityIsPosition } from './checks/rule-fields.js';
import type { Located, RuleIdentity } from './checks/unique.js';
import { whereIn } from './checks/where.js';
import type { WrittenLeaf, WrittenRule } from './written.js';
import { fastYamlSource } from './fast-yaml.js';
import { DEFAULT_MAX_BYTES, decodeUtf8, readSourceText, type SourceText } from './source-text.js';
import { parseYamlText, unreadable, type Path, type YamlSource } from './yaml-source.js';

export interface RuleFileResult {
  /** The rules that passed every check, normalised, in file order. */
  rules: DeclaredRule[];
  /** Name and ruleId of every rule that has them, for the checks across files. */
  identities: RuleIdentity[];
  problems: Problem[];
}

export interface ParseOptions {
  /** Skip the fast path (the tests compare both paths). */
  slowPathOnly?: boolean;
}

export function readRuleFile(absPath: string, displayPath: string): RuleFileResult {
  return fromSourceText(readSourceText(absPath, DEFAULT_MAX_BYTES), displayPath, {});
}

/** The same from bytes in memory (used by the fuzz and fast-path tests). */
export function parseRuleFile(bytes: Uint8Array, displayPath: string, options: ParseOptions = {}): RuleFileResult {
  return fromSourceText(decodeUtf8(bytes), displayPath, options);
}

function fromSourceText(text: SourceText, displayPath: string, options: ParseOptions): RuleFileResult {
  return text.ok ? parseRuleText(text.text, displayPath, options).result : checkRuleFile(unreadable(displayPath, text.problem));
}

/** A rule file's text through the fast path if it is clean there, else the slow path; says which was used. */
export function parseRuleText(text: string, displayPath: string, options: ParseOptions = {}): { result: RuleFileResult; parsedBy: 'fast' | 'slow' } {
  const fast = options.slowPathOnly ? undefined : fastYamlSource(text, sourceOptions(displayPath), locatedWhenClean);
  if (fast) {
    const result = checkRuleFile(fast.source);
    if (result.problems.length === 0 && !fast.strayed()) return { result, parsedBy: 'fast' };
  }
  return { result: checkRuleFile(parseYamlText(text, sourceOptions(displayPath))), parsedBy: 'slow' };
}

function sourceOptions(displayPath: string) {
  return { displayPath, validate: schemaValidator('rules'), messages: ruleFileMessages };
}

/** What a clean file's checks locate: each rule (its source) and its name and ruleId (for the checks across files). */
function locatedWhenClean(path: Path): boolean {
  const [rules, index, key, ...rest] = path;
  return rules === 'rules' && typeof index === 'number' && rest.length === 0 && (key === undefined || key === 'name' || key === 'ruleId');
}

export function checkRuleFile(source: YamlSource): RuleFileResult {
  const result: RuleFileResult = { rules: [], identities: [], problems: [...source.problems] };
  const written = isObject(source.value) && Array.isArray(source.value.rules) ? source.value.rules : [];
  written.forEach((rule: unknown, index) => {
    if (!isObject(rule)) return;
    const path: Path = ['rules', index];
    result.identities.push(identityOf(rule, path, source));
    const problems = checkRule(rule, path, source);
    result.problems.push(...problems);
    if (problems.length === 0 && source.isSchemaValid(path)) {
      const declared = normaliseRule(rule as unknown as WrittenRule);
      result.rules.push({ ...declared, source: { file: source.file, ...source.locate(path) } });
    }
  });
  result.problems = sortProblems(result.problems);
  return result;
}

function checkRule(rule: Record<string, unknown>, path: Path, source: YamlSource): Problem[] {
  const problems = priorityIsPosition(rule, whereIn(source, path));
  const actionsPath = [...path, 'actions'];
  if (Array.isArray(rule.actions) && source.isSchemaValid(actionsPath)) {
    problems.push(...actionsNonEmptyUnique(rule.actions, whereIn(source, actionsPath)));
  }
  for (const { leaf, leafPath } of leavesOf(rule, path)) {
    if (!source.isSchemaValid(leafPath)) continue;
    const where = whereIn(source, leafPath);
    for (const check of LEAF_CHECKS) problems.push(...check(leaf as WrittenLeaf, where));
  }
  return problems;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
