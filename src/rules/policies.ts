// The policy files (docs/behaviour.md, "Policies"): every *.yaml/*.yml of the policies
// directory, in path order, each checked against schemas/policies.schema.json (validator
// compiled at build time), then for what a schema cannot say: a key the condition language
// does not have, an empty class, a repeated name, an app or a rule that does not exist. Every
// problem is located as FILE:LINE:COL, like a rule file's. The class of requests is written in
// the rules' condition language and checked and normalised as a rule's conditions are.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { sortProblems, type Problem } from '../errors.js';
import { validatePolicies } from '../generated/validators.js';
import type { Path, YamlSource } from '../io/yaml-source.js';
import type { NormalRule, SourceLocation } from '../semantics/model.js';
import { normaliseRule } from '../semantics/normalise.js';
import type { WrittenConditions, WrittenLeaf } from '../semantics/written.js';
import { LEAF_CHECKS } from './checks/leaf-values.js';
import { whereIn } from './checks/where.js';
import type { ProjectConfig } from './config.js';
import { displayPath } from './display-path.js';
import { listRuleFiles, readYamlFiles } from './load.js';
import { repeats } from './checks/unique.js';
import { definedFields } from '../defined.js';
import { isObject } from '../io/json-depth.js';
import { describePath } from '../io/schema-messages.js';

type PolicyLevel = 'error' | 'warning' | 'advisory';
export const POLICY_OUTCOMES = ['allow', 'challenge', 'block', 'none'] as const;
export type PolicyOutcome = (typeof POLICY_OUTCOMES)[number];

export type PolicyExpectation = { outcome: PolicyOutcome[] } | { decidedBy: string };

export interface RequestPolicy {
  name: string;
  level: PolicyLevel;
  /** The apps it applies to; undefined: every app. */
  apps?: string[];
  /**
   * The class of requests as a rule whose conditions are the class (normal form), so the region
   * search walks it like any rule; undefined: every request.
   */
  requests?: NormalRule;
  expect: PolicyExpectation;
  /** Where the policy (its list item) starts, and where its expectation is written. */
  source: SourceLocation;
  expectAt: SourceLocation;
}

export interface LoadedPolicies {
  policies: RequestPolicy[];
  problems: Problem[];
  /** The files read, as displayed. */
  files: string[];
}

/** The default directory: `policies` beside the config file, else in the working directory. */
const DEFAULT_POLICIES_DIR = 'policies';

/** The name the class of requests carries as a rule: no rule file can hold it (names are printable). */
export const CLASS_RULE_NAME = '\u0000the class of requests';

const LEAF_KEYS = new Set(['conditionType', 'operator', 'value', 'fieldOption']);
const TREE_KEYS = new Set(['operator', 'children']);

interface WrittenPolicy {
  name: string;
  level: PolicyLevel;
  apps?: string[];
  requests?: WrittenConditions;
  expect: { outcome?: PolicyOutcome[]; decidedBy?: string };
}

/**
 * The policies of the project. The default directory may be missing (no policies); a directory
 * the config names must exist. Apps and rule names are checked by `policyReferenceProblems`.
 */
export async function loadPolicies(config: Pick<ProjectConfig, 'file' | 'policiesDir' | 'policiesDirAt'>, cwd: string): Promise<LoadedPolicies> {
  const named = config.policiesDir;
  const absDir = named ?? resolve(cwd, config.file === undefined ? '.' : dirname(config.file), DEFAULT_POLICIES_DIR);
  const isDirectory = await stat(absDir).then((s) => s.isDirectory(), () => undefined);
  if (isDirectory === undefined && named === undefined) return { policies: [], problems: [], files: [] };
  const shownDir = displayPath(cwd, absDir);
  if (isDirectory !== true) {
    // At the policiesDir key's value in the config, as its other problems are.
    const at = config.policiesDirAt ?? { file: config.file ?? shownDir, line: 1, col: 1 };
    return { policies: [], problems: [{ ...at, message: `policiesDir "${shownDir}" is not a directory of policy files` }], files: [] };
  }
  const policies: RequestPolicy[] = [];
  const read = await readYamlFiles(await listRuleFiles(absDir, cwd), cwd, { validate: validatePolicies, messages: { describe } }, (source) => {
    const written = isObject(source.value) && Array.isArray(source.value.policies) ? (source.value.policies as unknown[]) : [];
    return written.flatMap((policy, index) => {
      const path: Path = ['policies', index];
      if (!isObject(policy)) return [];
      const found = classProblems(policy.requests, [...path, 'requests'], source);
      if (found.length === 0 && source.isSchemaValid(path)) policies.push(toPolicy(policy as unknown as WrittenPolicy, path, source));
      return found;
    });
  });
  return { policies, problems: sortProblems([...read.problems, ...uniqueNames(policies)]), files: read.files };
}

/** An app a policy names that the config does not have, and a `decidedBy` naming no rule of an app it applies to. */
export function policyReferenceProblems(policies: readonly RequestPolicy[], rulesByApp: ReadonlyMap<string, readonly { name: string }[]>, allApps: readonly string[]): Problem[] {
  return policies.flatMap((policy) => {
    const unknownApps = (policy.apps ?? []).filter((app) => !allApps.includes(app));
    const problems: Problem[] = unknownApps.map((app) => ({ ...policy.source, message: `policy ${JSON.stringify(policy.name)} names app ${JSON.stringify(app)}, which the config does not have (apps: ${allApps.join(', ')})` }));
    if (!('decidedBy' in policy.expect)) return problems;
    const wanted = policy.expect.decidedBy;
    for (const [app, rules] of rulesByApp) {
      if (!appliesTo(policy, app) || rules.some((rule) => rule.name === wanted)) continue;
      problems.push({ ...policy.expectAt, message: `decidedBy ${JSON.stringify(wanted)} names no rule of app ${app}; it must be the name of a rule in the app's rule files` });
    }
    return problems;
  });
}

export function appliesTo(policy: RequestPolicy, app: string): boolean {
  return policy.apps === undefined || policy.apps.includes(app);
}

/** Keys the condition language does not have, and groups or classes that hold no condition. */
function classProblems(requests: unknown, path: Path, source: YamlSource): Problem[] {
  if (!isObject(requests)) return [];
  const problems: Problem[] = unknownKeys(requests, TREE_KEYS, path, source, 'the class of requests');
  if (!Array.isArray(requests.children)) return problems;
  if (requests.children.length === 0) problems.push(source.problemAt(path, 'the class of requests is empty: it has no group, so no request is in it; write at least one group with one condition, or leave out requests for every request'));
  requests.children.forEach((group: unknown, g) => {
    if (!isObject(group)) return;
    const groupPath = [...path, 'children', g];
    problems.push(...unknownKeys(group, TREE_KEYS, groupPath, source, 'a group'));
    if (!Array.isArray(group.children)) return;
    if (group.children.length === 0) problems.push(source.problemAt(groupPath, 'this group of the class is empty; write at least one condition in it'));
    group.children.forEach((leaf: unknown, l) => {
      if (!isObject(leaf)) return;
      const leafPath = [...groupPath, 'children', l];
      const keys = unknownKeys(leaf, LEAF_KEYS, leafPath, source, 'a condition');
      problems.push(...keys);
      if (keys.length > 0 || !source.isSchemaValid(leafPath)) return;
      for (const check of LEAF_CHECKS) problems.push(...check(leaf as unknown as WrittenLeaf, whereIn(source, leafPath)));
    });
  });
  return problems;
}

function unknownKeys(node: Record<string, unknown>, known: ReadonlySet<string>, path: Path, source: YamlSource, what: string): Problem[] {
  return Object.keys(node)
    .filter((key) => !known.has(key))
    .map((key) => source.problemAt([...path, key], `unknown key ${JSON.stringify(key)} in ${what}; it may have ${[...known].join(', ')}`, { key: true }));
}

function toPolicy(written: WrittenPolicy, path: Path, source: YamlSource): RequestPolicy {
  const expect: PolicyExpectation = written.expect.decidedBy === undefined ? { outcome: [...(written.expect.outcome ?? [])] } : { decidedBy: written.expect.decidedBy };
  const expectKey = 'decidedBy' in expect ? 'decidedBy' : 'outcome';
  return {
    name: written.name,
    level: written.level,
    ...definedFields({ apps: written.apps && [...written.apps], requests: written.requests && normaliseRule({ name: CLASS_RULE_NAME, actions: ['allow'], conditions: written.requests }) }),
    expect,
    source: { file: source.file, ...source.locate(path) },
    expectAt: { file: source.file, ...source.locate([...path, 'expect', expectKey]) },
  };
}

function uniqueNames(policies: readonly RequestPolicy[]): Problem[] {
  return repeats(policies, (policy) => policy.name).map(([policy, earlier]) => ({ ...policy.source, message: `duplicate policy name ${JSON.stringify(policy.name)} (also at ${earlier.source.file}:${earlier.source.line})` }));
}

function describe(path: Path): string {
  return path.length === 2 && path[0] === 'policies' ? 'policy' : describePath(path, { outcome: 'outcome', apps: 'app' });
}
