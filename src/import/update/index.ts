// `botrules import --update`: rewrite the existing rule files of an app in place so they
// declare its live rules, changing only what differs (docs/behaviour.md, "import --update").
// Pure: it takes the files (text and parse) and the live rules, works out each file's change as
// RFC 6902 operations (rule-operations.ts, arrange.ts, patch.ts), and has the one interpreter
// (interpret.ts, finish.ts) write the new text of each file from them.
import jsonpatch from 'fast-json-patch';
import { Document } from 'yaml';
import { UserError } from '../../errors.js';
import { parseYamlDocument } from '../../io/yaml-source.js';
import { matchRules } from '../../semantics/match.js';
import { writtenRule } from '../../semantics/written.js';
import type { DeclaredRule, LiveRule } from '../../semantics/model.js';
import { schemaComment } from '../rule-file.js';
import { arrange, type RulePlacement, type WorkFile } from './arrange.js';
import { finishFiles } from './finish.js';
import { interpretFile, type FileState, type SourceFile } from './interpret.js';
import { filePatch, type Operation } from './patch.js';
import { changedFieldNames, ruleOperations } from './rule-operations.js';
import { lineEndingOf } from './text.js';

export interface RuleFileText {
  /** Path below the rules directory with "/" separators (files are read in this order). */
  rel: string;
  /** As messages show it. */
  shown: string;
  /** The file's text, with its byte-order mark if it has one. */
  text: string;
  /** The parse of `text` without its byte-order mark, when the reader has it already (it is parsed otherwise). */
  document?: Document;
}

export interface UpdateInput {
  files: readonly RuleFileText[];
  /** The declared rules, in declared order, as the loader returned them (source.file = shown). */
  declared: readonly DeclaredRule[];
  live: readonly LiveRule[];
  /** The `$schema` a file the update creates names for editors. */
  schema: string;
}

export interface FileChange {
  rel: string;
  /** undefined for a file the update creates. */
  before: string | undefined;
  /** undefined for a file the update removes (no rule left in it). */
  after: string | undefined;
  /** The same change as RFC 6902 operations on the parsed file (patch.ts). */
  operations: Operation[];
}

export interface UpdateResult {
  /** Declared rules that no longer exist live; the update removes them (with their comments). */
  gone: DeclaredRule[];
  /** Declared rules whose fields the update changed, with the fields. */
  edited: { rule: LiveRule; fields: string[] }[];
  placements: RulePlacement[];
  changes: FileChange[];
}

export function updateRuleFiles(input: UpdateInput): UpdateResult {
  const { matched, gone } = liveCounterparts(input.declared, input.live);
  const edited: UpdateResult['edited'] = [];
  // Each rule as its file will hold it, by ruleId: a new one as `import` writes it.
  const values = new Map<string, unknown>(input.live.map((rule) => [rule.ruleId, writtenRule(rule)]));
  const read = input.files.map((file) => readFile(file, input.declared, matched, values, edited));
  const work: WorkFile[] = read.map(({ file, ruleIds }) => ({ rel: file.rel, ruleIds: ruleIds.filter((id) => id !== ''), originalCount: ruleIds.length }));
  const placements = arrange(work, input.live);
  const changes = writtenChanges(work, read, values, newFileSource(input.schema, read.map(({ source }) => source.eol)));
  return { gone, edited, placements, changes };
}

interface ReadFile {
  file: RuleFileText;
  source: ReturnType<typeof sourceOf>;
  document: Record<string, unknown>;
  /** The live ruleId of each of its rules ('' for one gone live). */
  ruleIds: string[];
  /** The operations inside each rule that changed, by index. */
  inside: Map<number, Operation[]>;
}

/** A file's rules paired with their live counterparts, and the operations inside each. */
function readFile(file: RuleFileText, declared: readonly DeclaredRule[], matched: ReadonlyMap<DeclaredRule, LiveRule>, values: Map<string, unknown>, edited: UpdateResult['edited']): ReadFile {
  const source = sourceOf(file);
  const document = (source.document.toJS() ?? {}) as Record<string, unknown>;
  const rules = declared.filter((rule) => rule.source.file === file.shown);
  const written = document.rules;
  if (!Array.isArray(written) || written.length !== rules.length) throw unsupportedLayout(file.shown);
  const inside = new Map<number, Operation[]>();
  rules.forEach((rule, index) => {
    const live = matched.get(rule);
    if (live === undefined) return;
    const operations = ruleOperations(written[index] as Record<string, unknown>, rule, live);
    // Where the rule moves to another file, that file adds exactly what this one removes.
    values.set(live.ruleId, jsonpatch.applyPatch(structuredClone(written[index]), operations).newDocument);
    if (operations.length === 0) return;
    inside.set(index, operations);
    edited.push({ rule: live, fields: changedFieldNames(rule, live) });
  });
  return { file, source, document, ruleIds: rules.map((rule) => matched.get(rule)?.ruleId ?? ''), inside };
}

/** Every file's operations, the interpreter's text from them, and the files that changed. */
function writtenChanges(work: readonly WorkFile[], read: readonly ReadFile[], values: ReadonlyMap<string, unknown>, fresh: () => SourceFile): FileChange[] {
  const existing = new Map(read.map((entry) => [entry.file.rel, entry]));
  const states = new Map<string, FileState>();
  const operations = new Map<string, Operation[]>();
  for (const file of work) {
    const was = existing.get(file.rel);
    // A file that held no rule and gets none (`rules: []`) is left alone.
    if (was !== undefined && file.originalCount === 0 && file.ruleIds.length === 0) continue;
    const side = { document: was?.document, ruleIds: was?.ruleIds ?? [] };
    const patch = filePatch(side, file.ruleIds, { inside: was?.inside ?? new Map(), valueOf: (id) => values.get(id) });
    operations.set(file.rel, patch);
    states.set(file.rel, interpretFile(was?.source ?? fresh(), patch));
  }
  const changes: FileChange[] = [];
  for (const [rel, text] of finishFiles(states)) {
    const was = existing.get(rel);
    const after = work.find((file) => file.rel === rel)?.ruleIds.length === 0 ? undefined : was === undefined ? text : writtenText(was.file, was.source, text);
    if (was?.file.text !== after) changes.push({ rel, before: was?.file.text, after, operations: operations.get(rel) ?? [] });
  }
  return changes;
}

const BOM = '\uFEFF';

/**
 * A file as read: without its byte-order mark, with its one parse and its line ending. A last
 * line without a newline gets one (no range moves), so lines added after it start on their own;
 * `unchanged` is the text the interpreter gives when no operation touched the file.
 */
export function sourceOf(file: RuleFileText): SourceFile & { bom: boolean; unchanged: string } {
  const bom = file.text.startsWith(BOM);
  const read = bom ? file.text.slice(BOM.length) : file.text;
  const eol = lineEndingOf(read);
  const text = read === '' || read.endsWith('\n') ? read : read + eol;
  return { text, bom, document: file.document ?? parseYamlDocument(read).document, eol, unchanged: text };
}

/** The file's new text, with its byte-order mark; exactly as it was when nothing changed it. */
export function writtenText(file: RuleFileText, source: { bom: boolean; unchanged: string }, text: string): string {
  return text === source.unchanged ? file.text : (source.bom ? BOM : '') + text;
}

/** A file the update creates: its schema comment, then what the operations add; CRLF when every file of the app is CRLF. */
function newFileSource(schema: string, eols: readonly string[]): () => SourceFile {
  const eol = eols.length > 0 && eols.every((e) => e === '\r\n') ? '\r\n' : '\n';
  return () => {
    // An empty document: nothing of the file is parsed, the comment is all its text so far.
    return { text: `#${schemaComment(schema)}${eol}`, document: new Document(), eol };
  };
}

/**
 * Matches as the planner does (src/semantics/match.ts), except that a pinned ruleId no live
 * rule has means the rule is gone, like a name nothing matches.
 */
export function liveCounterparts(declared: readonly DeclaredRule[], live: readonly LiveRule[]): { matched: Map<DeclaredRule, LiveRule>; gone: DeclaredRule[] } {
  const result = matchRules(declared, live, { missingRuleId: 'unmatched' });
  const [problem, ...more] = result.problems;
  if (problem !== undefined) {
    throw new UserError(`${problem.file}:${problem.line}:${problem.col}: ${problem.message}`, [
      ...more.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message}`),
      'Then run import --update again.',
    ]);
  }
  const matched = new Map(result.matches.map((match) => [match.declared, match.live]));
  return { matched, gone: declared.filter((rule) => !matched.has(rule)) };
}

function unsupportedLayout(shown: string): UserError {
  return new UserError(`${shown}: import --update edits rule files whose rules are a list under \`rules:\``, [
    'Rewrite this file in that layout, or replace the files with: botrules import --force',
  ]);
}
