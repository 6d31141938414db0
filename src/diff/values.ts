// A value of one request field that gives each of some atoms a required truth value, or why
// there is none (docs/behaviour.md, "Exhaustive behaviour diff"). The answer is exact for the
// text operators and for address ranges:
// - a positive `$eq`/`$in` leaves finitely many values: each is tried;
// - otherwise every positive prefix, suffix and substring is met by
//   PREFIX·x·PART·x·…·x·SUFFIX, where x is a character no leaf of the field contains. A
//   leaf value cannot straddle an x, so that text starts with, ends with, contains or equals a
//   value exactly when every text meeting the positive conditions must: if it fails a
//   negative condition, so does every candidate, and there is none;
// - address ranges cut the address space into intervals, each starting at a range's first
//   address or just after a range's last one: those addresses are tried.
// A `$re` pattern (tried on texts read off its syntax, pattern-examples.ts), or a text operator mixed with address ranges on the client address, has no
// such argument: when no candidate fits, the answer is "unknown", never "none".
import { formatAddress, parseRange, rangeBounds } from '../evaluate/addresses.js';
import { isAddressLeaf, presentVerdict, type EvaluationOptions } from '../evaluate/leaf.js';
import type { Leaf } from '../semantics/model.js';
import { absentTruth, type Literal } from './atoms.js';
import { patternExamples } from './pattern-examples.js';
import { leafValues } from '../semantics/fields.js';

export type FieldValue =
  | { found: true; value: string | undefined }
  | { found: false; unknown?: undefined }
  | { found: false; unknown: string };

/** Fields every request carries (docs/evaluation.md, "Rule-set analysis"), with the value used when nothing constrains them. */
const ALWAYS_CARRIED: Readonly<Record<string, string>> = { path: '/', httpMethod: 'GET' };

/** Characters tried, in order, as the separator no leaf value contains. */
const SEPARATORS = ['x', 'q', 'z', '~', '_', '\u00b7', '\u2022'];

/**
 * A value (undefined: the field is absent) meeting every literal of one field, `sample` being
 * any leaf of that field; `extra` are further candidates (the values the rule sets mention).
 */
export function fieldValue(sample: Leaf, literals: readonly Literal[], extra: readonly string[], options: EvaluationOptions): FieldValue {
  const carried = ALWAYS_CARRIED[sample.conditionType];
  let outOfTime = false;
  const fits = (value: string | undefined): boolean => literals.every(({ atom, holds }) => {
    const verdict = truth(atom.leaf, value, options);
    if (verdict === 'undecided') outOfTime = true;
    return verdict === holds;
  });
  const finite = finiteValues(literals);
  for (const value of finite ?? candidates(sample, literals, extra, options)) {
    if (value === undefined && carried !== undefined) continue;
    if (value !== undefined && sample.conditionType === 'path' && !value.startsWith('/')) continue;
    if (fits(value)) return { found: true, value };
  }
  if (outOfTime) return { found: false, unknown: 'a regular expression ran out of its time budget' };
  // Finitely many values were possible, and each was tried: there is none, patterns or not.
  if (finite !== undefined) return { found: false };
  const pattern = literals.find(({ atom }) => atom.leaf.operator === '$re');
  if (pattern !== undefined) return { found: false, unknown: 'a regular expression the search cannot reason about' };
  const mixed = literals.some(({ atom }) => isAddressLeaf(atom.leaf)) && literals.some(({ atom }) => !isAddressLeaf(atom.leaf) && leafValues(atom.leaf).length > 0);
  if (mixed) return { found: false, unknown: 'text conditions on the client address mixed with address ranges' };
  return { found: false };
}

/**
 * Whether no answer about a field with this leaf among its literals is "unknown" for the leaf's
 * sake: neither a `$re` nor a text condition on the client address (which beside address ranges
 * has no exact answer). A region search none of whose leaves is such gets only exact answers from
 * the witness search, unless it gives up for its size (model.ts).
 */
export function exactLeaf(leaf: Leaf): boolean {
  return leaf.operator !== '$re' && (leaf.conditionType !== 'socketIps' || isAddressLeaf(leaf) || leafValues(leaf).length === 0);
}

/** The field absent or one of a list, when a literal says it must equal a value of the list ($eq, $in, or a $ne, $notIn that does not hold). */
function finiteValues(literals: readonly Literal[]): (string | undefined)[] | undefined {
  if (literals.some(({ atom, holds }) => (atom.leaf.operator === '$exists' && !holds) || (atom.leaf.operator === '$notExists' && holds))) return [undefined];
  const finite = literals.find(({ atom, holds }) => !isAddressLeaf(atom.leaf) && (holds ? atom.leaf.operator === '$eq' || atom.leaf.operator === '$in' : atom.leaf.operator === '$ne' || atom.leaf.operator === '$notIn'));
  return finite === undefined ? undefined : [...leafValues(finite.atom.leaf)];
}

function truth(leaf: Leaf, value: string | undefined, options: EvaluationOptions): boolean | 'undecided' {
  return value === undefined ? absentTruth(leaf) : presentVerdict(leaf, value, options);
}

function* candidates(sample: Leaf, literals: readonly Literal[], extra: readonly string[], options: EvaluationOptions): Generator<string | undefined> {
  yield undefined;
  const carried = ALWAYS_CARRIED[sample.conditionType];
  if (carried !== undefined) yield carried;
  yield* addressCandidates(literals);
  // A readable text first ("HeadlessChrome bingbot", "/api/login/admin"), kept only when it
  // meets every condition; the separated one below is what the "none" argument rests on.
  const readable = readableText(sample, literals);
  if (readable !== undefined) yield readable;
  const joined = joinedText(sample, literals, [], extra, options);
  if (joined !== undefined) yield joined;
  yield* extra;
  // A pattern that must match: a simple reading of it, alone and among the other conditions' parts.
  const guesses = literals.filter(({ atom, holds }) => holds && atom.leaf.operator === '$re').flatMap(({ atom }) => leafValues(atom.leaf).flatMap((value) => patternExamples(value)));
  yield* guesses;
  for (const guess of guesses) {
    const readableWithGuess = readableText(sample, literals, [guess]);
    if (readableWithGuess !== undefined) yield readableWithGuess;
    const withGuess = joinedText(sample, literals, [guess], extra, options);
    if (withGuess !== undefined) yield withGuess;
  }
}

/** The positive text conditions' values (and `moreParts`) joined by a space (by "/" in a path), each once; undefined when there are none. */
function readableText(sample: Leaf, literals: readonly Literal[], moreParts: readonly string[] = []): string | undefined {
  const parts: string[] = [...moreParts];
  for (const { atom, holds } of literals) {
    const op = atom.leaf.operator;
    if (isAddressLeaf(atom.leaf) || !holds || !['$startsWith', '$contains', '$endsWith'].includes(op)) continue;
    const value = leafValues(atom.leaf)[0] ?? '';
    if (value !== '' && !parts.includes(value)) parts.push(value);
  }
  if (parts.length === 0) return undefined;
  const starts = literals.filter(({ atom, holds }) => holds && atom.leaf.operator === '$startsWith').map(({ atom }) => leafValues(atom.leaf)[0] ?? '');
  const ordered = [...starts.filter((value) => parts.includes(value)), ...parts.filter((value) => !starts.includes(value))];
  if (sample.conditionType !== 'path') return ordered.join(' ');
  return ordered.map((part, i) => (i === 0 ? part : part.replace(/^\/+/, ''))).join('/').replace(/^(?!\/)/, '/');
}

/** PREFIX·x·PART·x·…·x·SUFFIX for the positive text conditions, or undefined when the prefixes (or suffixes) disagree. */
function joinedText(sample: Leaf, literals: readonly Literal[], moreParts: readonly string[], extra: readonly string[], options: EvaluationOptions): string | undefined {
  const fold = options.caseInsensitiveValues === true ? (text: string) => text.toLowerCase() : (text: string) => text;
  const prefixes: string[] = sample.conditionType === 'path' ? ['/'] : [];
  const suffixes: string[] = [];
  const parts: string[] = [...moreParts];
  for (const { atom, holds } of literals) {
    const op = atom.leaf.operator;
    const value = leafValues(atom.leaf)[0] ?? '';
    if (isAddressLeaf(atom.leaf)) continue;
    if (op === '$startsWith' && holds) prefixes.push(value);
    if ((op === '$endsWith' && holds) || (op === '$notEndsWith' && !holds)) suffixes.push(value);
    if (op === '$contains' && holds) parts.push(value);
  }
  const prefix = longestOfChain(prefixes, fold, (a, b) => a.startsWith(b));
  const suffix = longestOfChain(suffixes, fold, (a, b) => a.endsWith(b));
  if (prefix === undefined || suffix === undefined) return undefined;
  const used = [...literals.flatMap(({ atom }) => leafValues(atom.leaf)), ...extra, ...moreParts].map(fold).join('');
  const separator = SEPARATORS.find((char) => !used.includes(fold(char))) ?? '\u{1f6a7}';
  // At least two segments, so at least one separator: the text never equals a leaf value.
  return [prefix, ...parts, suffix].join(separator);
}

/** The longest value when every other is its prefix (or suffix); undefined when two disagree. */
function longestOfChain(values: readonly string[], fold: (text: string) => string, extends_: (longer: string, shorter: string) => boolean): string | undefined {
  let longest = '';
  for (const value of values) {
    const [a, b] = fold(value).length >= fold(longest).length ? [value, longest] : [longest, value];
    if (!extends_(fold(a), fold(b))) return undefined;
    longest = a;
  }
  return longest;
}

/** Addresses that start each interval the ranges cut out of the address space. */
function addressCandidates(literals: readonly Literal[]): string[] {
  const out: string[] = [];
  for (const { atom } of literals) {
    if (!isAddressLeaf(atom.leaf)) continue;
    for (const text of leafValues(atom.leaf)) out.push(...edgesOf(text));
  }
  if (out.length > 0) out.push('192.0.2.1', '2001:db8::1', '0.0.0.0', '::');
  return out;
}

/**
 * Per range as written: its first and last address and those just outside it. Worked out once:
 * the witness search asks for a field's value under each new set of literals, and the same
 * ranges' edges, made of BigInt arithmetic, were most of what it allocated on a plan of
 * address-range rules. Range texts come from the rules, so the memory is bounded by them.
 */
const EDGES = new Map<string, readonly string[]>();

function edgesOf(text: string): readonly string[] {
  let edges = EDGES.get(text);
  if (edges !== undefined) return edges;
  const range = parseRange(text);
  if (range === undefined) edges = [];
  else {
    const { first, last, max } = rangeBounds(range);
    const found = [formatAddress(first, range.family), formatAddress(last, range.family)];
    if (last < max) found.push(formatAddress(last + 1n, range.family));
    if (first > 0n) found.push(formatAddress(first - 1n, range.family));
    edges = found;
  }
  EDGES.set(text, edges);
  return edges;
}
