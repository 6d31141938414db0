// Loading `scripts-policy.yaml` (docs/behaviour.md, "Rule files", "Script inventory"): read and schema-checked like rule files,
// so every problem is reported as FILE:LINE:COL.
import { lstat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { UserError, ValidationError, type Problem } from '../errors.js';
import { validatePolicy } from '../generated/validators.js';
import type { SchemaIssue, SchemaMessages } from '../io/schema-messages.js';
import { loadYamlFile, type YamlSource } from '../io/yaml-source.js';
import { linkPlacement, placementMessage } from '../io/project-path.js';
import type { Policy, PolicyEntry } from './policy-match.js';

const DEFAULT_POLICY_FILE = 'scripts-policy.yaml';
const MATCHERS = ['id', 'pattern', 'vendor'] as const;

/** An entry as written in the file, before its location is attached. */
type RawEntry = Omit<PolicyEntry, 'source'>;

/**
 * The policy to apply: `--policy FILE` (which must exist), else `scripts-policy.yaml` in the
 * working directory when there is one, else none.
 */
export async function findPolicy(option: string | undefined, cwd: string): Promise<Policy | undefined> {
  if (option !== undefined) return loadPolicy(resolve(cwd, option), cwd);
  const fallback = resolve(cwd, DEFAULT_POLICY_FILE);
  try {
    await lstat(fallback);
  } catch {
    return undefined;
  }
  return loadPolicy(fallback, cwd);
}

/** Reads and checks a policy file; throws ValidationError listing every problem. */
export async function loadPolicy(absPath: string, cwd: string): Promise<Policy> {
  const displayPath = relative(cwd, absPath) || absPath;
  const where = linkPlacement(absPath, cwd);
  if (where !== 'inside') throw new ValidationError([{ file: displayPath, line: 1, col: 1, message: placementMessage(where, 'the policy file') }]);
  const source = await loadYamlFile(absPath, { displayPath, validate: validatePolicy, messages: POLICY_MESSAGES });
  if (source.value === undefined && source.problems.length === 1 && /does not exist/.test(source.problems[0]?.message ?? '')) {
    throw new UserError(`policy file ${displayPath} does not exist`);
  }
  const problems = [...source.problems];
  const raw = (source.value as { approved?: unknown } | undefined)?.approved;
  const entries: PolicyEntry[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((item, index) => {
      const path = ['approved', index];
      problems.push(...entryProblems(item, source, index));
      if (source.isSchemaValid(path)) {
        entries.push({ ...(item as RawEntry), source: { file: displayPath, ...source.locate(path) } });
      }
    });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { file: displayPath, entries };
}

/** Checks the schema leaves to code: exactly one matcher (worded once) and real calendar dates. */
function entryProblems(item: unknown, source: YamlSource, index: number): Problem[] {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return [];
  const entry = item as Record<string, unknown>;
  const path = ['approved', index];
  const problems: Problem[] = [];
  const matchers = MATCHERS.filter((m) => entry[m] !== undefined);
  if (matchers.length === 0) {
    problems.push(source.problemAt(path, 'an approved entry needs one of id, pattern or vendor to say which scripts it approves'));
  } else if (matchers.length > 1) {
    problems.push(source.problemAt([...path, matchers[1] ?? ''], `an approved entry has exactly one of id, pattern or vendor; this one has ${matchers.join(' and ')}: split it into separate entries`, { key: true }));
  }
  if (typeof entry.expires === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(entry.expires) && !isCalendarDate(entry.expires)) {
    problems.push(source.problemAt([...path, 'expires'], `expires ${entry.expires} is not a calendar date`));
  }
  return problems;
}

function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.split('-').map(Number);
  const probe = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() + 1 === month && probe.getUTCDate() === day;
}

const POLICY_MESSAGES: SchemaMessages = {
  describe(path) {
    const last = path.at(-1);
    if (typeof last === 'number') return `approved entry ${last + 1}`;
    return last === undefined ? 'the policy file' : String(last);
  },
  explain(issue: SchemaIssue) {
    // "exactly one matcher" is worded once by entryProblems, not as three schema branches.
    if (issue.schemaPath.includes('/oneOf/')) return null;
    const field = issue.path.at(-1);
    if (issue.keyword === 'pattern' || issue.keyword === 'minLength') {
      if (field === 'justification') return 'justification must say why the script is needed; it is empty';
      if (field === 'owner') return 'owner must name the team or person who answers for the script; it is empty';
      if (field === 'expires') return `expires ${JSON.stringify(issue.data)} must be a date written YYYY-MM-DD`;
    }
    if (issue.keyword === 'required' && issue.path.length === 0) {
      return 'the policy file needs an `approved:` list of entries (id, pattern or vendor, with justification and owner)';
    }
    return undefined;
  },
};
