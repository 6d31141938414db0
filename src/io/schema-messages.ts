// Turns ajv's errors into one sentence per problem. With allErrors and if/then branches ajv
// reports bookkeeping errors ("must match then schema") and several errors for one mistake;
// this module drops the bookkeeping, lets a file type explain or summarise its own shapes,
// words the rest generically, and removes duplicates. Never a raw ajv dump.
import { distance as levenshtein } from 'fastest-levenshtein';
import type { ErrorObject } from 'ajv';
import { pointerSegments, readablePathOf, resolvePath, valueAt, type Path } from './json-pointer.js';

/** One ajv error, with its path resolved against the data (list indexes as numbers). */
export interface SchemaIssue {
  keyword: string;
  /** The value the error is about; for `required` and `additionalProperties`, the mapping. */
  path: Path;
  data: unknown;
  /** The mapping or list that holds `data` (undefined at the top level). */
  parent: unknown;
  params: Record<string, unknown>;
  /** Where in the schema the failing keyword sits, e.g. `#/definitions/leaf/allOf/0/then/required`. */
  schemaPath: string;
}

/** How a kind of file words its problems; every hook is optional. */
export interface SchemaMessages {
  /** Names the thing at `path`: "rule", "condition"; by default its key, or "item 2 of actions". */
  describe?(path: Path): string;
  /** A better sentence for an issue; null drops it (another check reports it); undefined: the generic one. */
  explain?(issue: SchemaIssue): string | null | undefined;
  /** One sentence replacing every issue at or under `path` (e.g. a wrongly nested tree). */
  summarise?(path: Path, data: unknown): string | undefined;
}

/**
 * The same sentences for a file whose problems are not printed at a line (a plan, a snapshot):
 * each names its place by path, as `unknown key "ruleId" in apps[0].steps[2].body`.
 */
export function schemaErrorLines(errors: readonly ErrorObject[], root: unknown): string[] {
  const describe = (path: Path): string => (path.length === 0 ? 'the top level' : readablePathOf(path));
  return [...new Set(translateSchemaErrors(errors, root, { describe }).map((problem) => problem.message))];
}

interface TranslatedProblem {
  path: Path;
  /** Point at the key of `path` rather than its value. */
  key: boolean;
  message: string;
}

/** Keywords that only say "a branch failed"; the branch's own errors say what is wrong. */
const BOOKKEEPING = new Set(['if', 'allOf', 'anyOf', 'oneOf', '$ref']);

export function translateSchemaErrors(errors: readonly ErrorObject[], root: unknown, messages: SchemaMessages = {}): TranslatedProblem[] {
  const seen = new Set<string>();
  const out: TranslatedProblem[] = [];
  for (const error of errors) {
    if (BOOKKEEPING.has(error.keyword)) continue;
    const problem = translate(toIssue(error, root), error, root, messages);
    if (!problem) continue;
    const id = JSON.stringify([problem.path, problem.key, problem.message]);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(problem);
  }
  return out;
}

function translate(issue: SchemaIssue, error: ErrorObject, root: unknown, messages: SchemaMessages): TranslatedProblem | undefined {
  const summary = summaryFor(issue.path, root, messages);
  if (summary) return summary;
  const explained = messages.explain?.(issue);
  if (explained === null) return undefined;
  const message = explained ?? genericMessage(issue, error, messages.describe ?? describePath);
  return { ...problemTarget(issue), message };
}

/** The shallowest ancestor of `path` (or the path itself) that the file type summarises. */
function summaryFor(path: Path, root: unknown, messages: SchemaMessages): TranslatedProblem | undefined {
  if (!messages.summarise) return undefined;
  for (let length = 0; length <= path.length; length += 1) {
    const prefix = path.slice(0, length);
    const message = messages.summarise(prefix, valueAt(root, prefix));
    if (message) return { path: prefix, key: false, message };
  }
  return undefined;
}

function toIssue(error: ErrorObject, root: unknown): SchemaIssue {
  const path = resolvePath(pointerSegments(error.instancePath), root);
  return {
    keyword: error.keyword,
    path,
    data: valueAt(root, path),
    parent: path.length === 0 ? undefined : valueAt(root, path.slice(0, -1)),
    params: error.params as Record<string, unknown>,
    schemaPath: error.schemaPath,
  };
}

/** Where the problem is printed: at an unknown or forbidden key itself, else at the value. */
function problemTarget(issue: SchemaIssue): { path: Path; key: boolean } {
  if (issue.keyword === 'additionalProperties') return { path: [...issue.path, String(issue.params.additionalProperty)], key: true };
  if (issue.keyword === 'false schema' || issue.keyword === 'not') return { path: issue.path, key: true };
  return { path: issue.path, key: false };
}

function genericMessage(issue: SchemaIssue, error: ErrorObject, describe: (path: Path) => string): string {
  const label = describe(issue.path);
  const p = issue.params;
  switch (issue.keyword) {
    case 'type':
      return typeMessage(label, String(p.type).split(','), issue.data);
    case 'enum':
      return enumMessage(label, issue.data, p.allowedValues as unknown[]);
    case 'required':
      return `missing "${String(p.missingProperty)}" in ${label}`;
    case 'additionalProperties':
      return `unknown key "${String(p.additionalProperty)}" in ${label}${allowedList(error)}`;
    case 'false schema':
    case 'not':
      return `"${String(issue.path.at(-1))}" is not allowed here`;
    case 'const':
      return `${label} must be ${JSON.stringify(p.allowedValue)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? `${label} must not be empty` : `${label} must be at least ${String(p.limit)} characters long`;
    case 'minItems':
      return Number(p.limit) === 1 ? `${label} must not be an empty list` : `${label} must have at least ${String(p.limit)} items`;
    case 'minimum':
      return `${label} must be at least ${String(p.limit)}`;
    case 'maximum':
      return `${label} must be at most ${String(p.limit)}`;
    case 'pattern':
      return `${label} ${JSON.stringify(issue.data)} does not have the expected form (${String(p.pattern)})`;
    default:
      return `${label} ${error.message ?? 'is not valid'}`;
  }
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

/** "value must be a string for operator $eq, not a number; put it in quotes: "13335"" */
export function typeMessage(label: string, expected: readonly string[], data: unknown, context = ''): string {
  const wanted = expected.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
  if (data === null) return `${label} is empty; it must be ${wanted}${context}`;
  const quoteHint = expected.includes('string') && (typeof data === 'number' || typeof data === 'boolean')
    ? `; put it in quotes: "${String(data)}"`
    : '';
  return `${label} must be ${wanted}${context}, not ${kindOf(data)}${quoteHint}`;
}

function enumMessage(label: string, data: unknown, allowed: readonly unknown[]): string {
  const list = allowed.map(String).join(', ');
  if (typeof data !== 'string') return `${label} must be one of ${list}, not ${kindOf(data)}`;
  const near = nearest(data, allowed.map(String));
  return `${label} "${data}" is not one of ${list}${near === undefined ? '' : `; did you mean "${near}"?`}`;
}

/** The allowed value `typed` most likely meant: the same but for case, else one within two edits. */
function nearest(typed: string, allowed: readonly string[]): string | undefined {
  const sameButCase = allowed.find((value) => value.toLowerCase() === typed.toLowerCase());
  if (sameButCase !== undefined) return sameButCase;
  const scored = allowed.map((value) => ({ value, edits: levenshtein(typed.toLowerCase(), value.toLowerCase()) })).filter(({ edits }) => edits <= 2);
  return scored.sort((a, b) => a.edits - b.edits)[0]?.value;
}

export function kindOf(data: unknown): string {
  if (data === null || data === undefined) return 'empty';
  if (Array.isArray(data)) return 'a list';
  if (typeof data === 'object') return 'a mapping';
  if (typeof data === 'string') return 'a string';
  if (typeof data === 'number') return 'a number';
  return String(data);
}

/** " (allowed: a, b)" when the error carries its schema (ajv's `verbose`), else nothing. */
function allowedList(error: ErrorObject): string {
  const allowed = allowedKeys(error);
  return allowed.length === 0 ? '' : ` (allowed: ${allowed.join(', ')})`;
}

/** The keys an object schema allows, without those it declares only to forbid them. */
function allowedKeys(error: ErrorObject): string[] {
  const properties = (error.parentSchema?.properties ?? {}) as Record<string, unknown>;
  return Object.entries(properties)
    .filter(([, schema]) => schema !== false && !(typeof schema === 'object' && schema !== null && 'not' in schema))
    .map(([name]) => name);
}

/**
 * A place in a file as most file types name it: the top level, the key, or "item N of LIST";
 * `listItems` names the items of some lists after the list's key (`actions` → "action").
 */
export function describePath(path: Path, listItems: Readonly<Record<string, string>> = {}): string {
  const last = path.at(-1);
  if (last === undefined) return 'the top level';
  if (typeof last !== 'number') return last;
  const list = String(path.at(-2) ?? 'the list');
  return Object.hasOwn(listItems, list) ? (listItems[list] as string) : `item ${last + 1} of ${list}`;
}
