// The reports `replay merge` reads (docs/replay.md, "Shards"): JSON written by `replay --format
// json`, one per shard. Each is untrusted input: read with a size cap and a nesting bound, and
// checked in shape (every part merge reads) before anything is merged, so a file that is not a
// report, or was cut short, is an error naming it and never half a merge.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { isObject, jsonTooDeep } from '../io/json-depth.js';
import type { ReplayReport } from './tally.js';

/** A JSON report keeps counts and a few examples per part: far below this. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

const USAGE = 'give reports written by botrules replay --format json';

export async function readShardReport(file: string, cwd: string): Promise<ReplayReport> {
  const path = resolve(cwd, file);
  const size = await stat(path).then((info) => info.size, (error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot read the report ${file} (${error.code ?? 'unreadable'})`);
  });
  if (size > MAX_REPORT_BYTES) throw new UserError(`${file}: a file larger than 64 MiB is not a replay report: ${USAGE}`);
  const text = await readFile(path, 'utf8');
  const deep = jsonTooDeep(text);
  if (deep !== undefined) throw new UserError(`${file}:${deep.line}:${deep.col}: the report ${deep.message}: ${USAGE}`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const { line, col, truncated } = parseFailure(text, error);
    throw new UserError(`${file}:${line}:${col}: ${truncated ? 'the report is cut short (its JSON ends before it is complete)' : 'not JSON'}: ${USAGE}`);
  }
  const problem = reportProblem(document);
  if (problem !== undefined) throw new UserError(`${file} is not a replay report (${problem}): ${USAGE}`);
  const { formatVersion: _version, ...report } = document as ReplayReport & { formatVersion: 1 };
  return report;
}

/**
 * Where JSON.parse stopped (its message's position; the end for "Unexpected end"), and whether
 * the text was cut short: it stopped at the end of the text, or in a string never closed.
 */
function parseFailure(text: string, error: unknown): { line: number; col: number; truncated: boolean } {
  const message = String((error as Error).message);
  const at = /position (\d+)/.exec(message);
  const ended = /end of JSON input/i.test(message);
  const offset = at !== null ? Number(at[1]) : ended ? text.length : 0;
  const truncated = text.trim() !== '' && (ended || /Unterminated string/i.test(message) || offset >= text.trimEnd().length);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, col: (before[before.length - 1] ?? '').length + 1, truncated };
}

type Check = (value: unknown) => boolean;
const isCount: Check = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isString: Check = (value) => typeof value === 'string';
const isName: Check = (value) => value === undefined || typeof value === 'string';
const arrayOf = (item: Check): Check => (value) => Array.isArray(value) && value.every(item);
const record = (fields: Record<string, Check>, optional: Record<string, Check> = {}): Check => (value) => isObject(value) &&
  Object.entries(fields).every(([name, check]) => check(value[name])) &&
  Object.entries(optional).every(([name, check]) => value[name] === undefined || check(value[name]));

const OUTCOME: Check = (value) => ['none', 'allow', 'challenge', 'block', 'undecided'].includes(value as string);
const WHERE = record({ file: isString, line: isCount });
const EXAMPLE = record({ file: isString, line: isCount, request: isObject });
const TRANSITION = record({ from: OUTCOME, to: OUTCOME, count: isCount, rules: arrayOf(record({ count: isCount, before: isName, after: isName })), examples: arrayOf(EXAMPLE) });
const COVERAGE = record({
  carried: (value) => isObject(value) && Object.values(value).every(isCount),
  unusable: arrayOf(record({ field: isString, count: isCount, example: isString, first: WHERE })),
  empty: record({ count: isCount, keys: arrayOf(isString) }, { first: WHERE }),
  missing: arrayOf(record({ field: isString, rules: arrayOf(isString), undecided: isCount })),
  undecided: isCount,
  examples: arrayOf(EXAMPLE),
}, { partialHeaders: arrayOf(isString) });
const PRODUCTION = record({
  recorded: isCount, compared: isCount, agreed: isCount, byService: isCount, undecided: isCount, simulated: isCount,
  disagreements: arrayOf(record({ direction: isString, rule: isName, count: isCount, examples: arrayOf(EXAMPLE) })),
});

/** The first part of the document that is not as `replay --format json` writes it, or undefined. */
function reportProblem(document: unknown): string | undefined {
  if (!isObject(document)) return 'not a JSON object';
  if (document.formatVersion !== 1) return 'formatVersion is not 1';
  const parts: [string, boolean][] = [
    ['app', typeof document.app === 'string'],
    ['against', typeof document.against === 'string'],
    ['files', arrayOf(isString)(document.files)],
    ['notApplied', arrayOf(isString)(document.notApplied)],
    ['read, evaluated, sameOutcomeOtherRule', [document.read, document.evaluated, document.sameOutcomeOtherRule].every(isCount)],
    ['skipped', arrayOf(record({ reason: isString, count: isCount, first: WHERE }))(document.skipped)],
    ['undecided', record({ live: isCount, declared: isCount })(document.undecided)],
    ['transitions', arrayOf(TRANSITION)(document.transitions)],
    ['shadow', document.shadow === undefined || record({ rules: arrayOf(isString), transitions: arrayOf(TRANSITION), undecided: isCount })(document.shadow)],
    ['coverage', document.coverage === undefined || COVERAGE(document.coverage)],
    ['production', document.production === undefined || PRODUCTION(document.production)],
    ['engine', document.engine === undefined || record({ name: isString, requestsPerSecond: (value) => typeof value === 'number' })(document.engine)],
    ['ruleSets', document.ruleSets === undefined || record({ live: isString, declared: isString })(document.ruleSets)],
  ];
  return parts.find(([, valid]) => !valid)?.[0];
}
