// Live snapshots: the live rules of every app at one moment, written by `botrules live` and
// planned against by `plan --live` (docs/behaviour.md, "Live snapshots"). A pull request's
// plan job reads a snapshot instead of listing, so it needs no token. The file comes from
// an artifact anyone with write access to a branch could influence, so reading it trusts
// nothing: schema first (schemas/live-snapshot.schema.json, compiled at build time), then
// every rule normalised exactly as a listed rule is, each app's fingerprint recomputed, and
// the integrity value over the whole file recomputed (docs/security.md, "Live snapshot
// integrity": it proves the file is whole, not who wrote it).
import { hash } from 'node:crypto';
import type { ErrorObject } from 'ajv';
import { isNode } from 'yaml';
import { parseYamlDocument } from '../io/yaml-source.js';
import { MAX_JSON_FILE_BYTES } from '../io/capped-read.js';
import { jsonTooDeep, parseJsonOr } from '../io/json-depth.js';
import { UserError, ValidationError, type Problem } from '../errors.js';
import { pointerSegments } from '../io/json-pointer.js';
import { validateLiveSnapshot } from '../generated/validators.js';
import { duplicateRuleIdMessage, firstDuplicateRuleId, toLiveRule } from '../api/live-rule.js';
import type { ApiRule } from '../api/rule-response.js';
import { fingerprintRules, inPriorityOrder } from '../plan/fingerprint.js';
import type { LiveRule, Rule } from '../semantics/model.js';
import { withUnknownFields } from '../semantics/unknown.js';
import type { RulesApi } from '../api/types.js';

/** 2 added `integrity`; a snapshot of formatVersion 1 has none and is refused (take a new one). */
const LIVE_SNAPSHOT_FORMAT_VERSION = 2;

/** Larger than any real rule set (a few thousand rules take a few MB); reading stops here. */
export const MAX_SNAPSHOT_BYTES = MAX_JSON_FILE_BYTES;

/**
 * Problems in a snapshot up to this size are located by reading it again as YAML; in a larger
 * one they name the JSON path instead: the second reading of a 60 MB file took minutes and
 * gigabytes, and a deeply nested one overflows the YAML reader's stack.
 */
const MAX_LOCATED_CHARS = 1024 * 1024;

/**
 * A rule as a snapshot file records it: a listed rule's fields in a fixed order. Reading the
 * file makes each one a LiveRule again through the live rules' normaliser, never by trust.
 */
export type RecordedRule = Rule & { ruleId: string; priority: number };

/** An app's rules: LiveRules once read (the default), RecordedRules as written. */
interface SnapshotApp<R extends RecordedRule = LiveRule> {
  app: string;
  fingerprint: string;
  rules: R[];
}

export interface LiveSnapshot<R extends RecordedRule = LiveRule> {
  formatVersion: typeof LIVE_SNAPSHOT_FORMAT_VERSION;
  takenAt: string;
  apps: SnapshotApp<R>[];
  /** `sha256:<hex>` over formatVersion, takenAt and every app's name and fingerprint (see snapshotIntegrity). */
  integrity: string;
}

/**
 * The integrity value of a snapshot: SHA-256 over its format version, `takenAt`, and each app's
 * name and fingerprint in file order. Each fingerprint covers its app's rules (order and every
 * field), so this covers every field of the file. It is unkeyed: it detects damage and edits
 * that did not recompute it, never who wrote the file; provenance comes from where the file
 * was downloaded (docs/security.md, "Live snapshot integrity").
 */
export function snapshotIntegrity(snapshot: { formatVersion: number; takenAt: string; apps: readonly Pick<SnapshotApp, 'app' | 'fingerprint'>[] }): string {
  const covered = {
    formatVersion: snapshot.formatVersion,
    takenAt: snapshot.takenAt,
    apps: snapshot.apps.map(({ app, fingerprint }) => ({ app, fingerprint })),
  };
  return `sha256:${hash('sha256', JSON.stringify(covered), 'hex')}`;
}

/** The snapshot of freshly listed rules; each app's rules in priority order. */
export function takeSnapshot(listed: readonly { app: string; rules: readonly LiveRule[] }[], takenAt: Date): LiveSnapshot<RecordedRule> {
  const content = {
    formatVersion: LIVE_SNAPSHOT_FORMAT_VERSION as typeof LIVE_SNAPSHOT_FORMAT_VERSION,
    takenAt: takenAt.toISOString(),
    apps: listed.map(({ app, rules }) => ({ app, fingerprint: fingerprintRules(rules), rules: inPriorityOrder(rules).map(ownFields) })),
  };
  return { ...content, integrity: snapshotIntegrity(content) };
}

/**
 * The rule's fields in a fixed order, so the file is stable and diff-friendly; fields
 * botrules does not know follow, kept as the service listed them (docs/behaviour.md, "Unknown fields").
 */
function ownFields(rule: LiveRule): RecordedRule {
  const { ruleId, name, description, status, actions, conditions, priority } = rule;
  return withUnknownFields({ ruleId, name, description, status, actions, conditions, priority }, rule, 'rule');
}

/**
 * Parses and checks a snapshot's text. `file` names it in every problem. Throws a
 * ValidationError (`FILE:LINE:COL: message` per problem) when it cannot be trusted.
 */
export function readLiveSnapshot(text: string, file: string): LiveSnapshot {
  const tooDeep = jsonTooDeep(text);
  if (tooDeep) throw new ValidationError([{ file, line: tooDeep.line, col: tooDeep.col, message: `the snapshot ${tooDeep.message}` }]);
  const value = parseJsonOr(text, (error) => {
    throw new ValidationError([syntaxProblem(text, file, error)]);
  });
  if (!validateLiveSnapshot(value)) {
    throw new ValidationError(locate(text, file, (validateLiveSnapshot.errors ?? []).map(schemaProblem)));
  }
  const snapshot = value as LiveSnapshot<RecordedRule>;
  const found: Located[] = [];
  const apps = snapshot.apps.map((app, a) => checkedApp(app, a, found));
  snapshot.apps.forEach((app, a) => {
    if (snapshot.apps.findIndex((other) => other.app === app.app) !== a) found.push({ path: ['apps', a, 'app'], message: `app ${JSON.stringify(app.app)} appears twice` });
  });
  if (found.length === 0 && snapshotIntegrity(snapshot) !== snapshot.integrity) {
    found.push({
      path: ['integrity'],
      message: `the integrity value of ${file} does not match its contents (formatVersion, takenAt, apps): the snapshot was edited or damaged; take a new one with botrules live`,
    });
  }
  if (found.length > 0) throw new ValidationError(locate(text, file, found));
  return { formatVersion: LIVE_SNAPSHOT_FORMAT_VERSION, takenAt: snapshot.takenAt, apps, integrity: snapshot.integrity };
}

/** The rules of `app`, or a UserError saying the snapshot does not cover it. */
export function rulesOf(snapshot: LiveSnapshot, app: string, file: string): LiveRule[] {
  const found = snapshot.apps.find((entry) => entry.app === app);
  if (found === undefined) throw notInSnapshot(snapshot.apps.map((entry) => entry.app), app, file);
  return found.rules.map((rule) => structuredClone(rule));
}

function notInSnapshot(apps: readonly string[], app: string, file: string): UserError {
  return new UserError(`${file} holds no snapshot of app ${JSON.stringify(app)}`, [
    `It has ${apps.length === 0 ? 'no apps' : apps.map((name) => JSON.stringify(name)).join(', ')}; take a new one with: botrules live --out ${file}`,
  ]);
}

interface Located {
  path: (string | number)[];
  message: string;
}

/** Normalises the rules as a listed answer is normalised and recomputes the fingerprint. */
function checkedApp(app: SnapshotApp<RecordedRule>, a: number, found: Located[]): SnapshotApp {
  const rules: LiveRule[] = [];
  const duplicate = firstDuplicateRuleId(app.rules);
  if (duplicate) found.push({ path: ['apps', a, 'rules', duplicate.index, 'ruleId'], message: duplicateRuleIdMessage(duplicate.ruleId, app.app) });
  app.rules.forEach((rule, r) => {
    // The schema requires every leaf's operator and conditionType, so nothing here can throw.
    rules.push(toLiveRule(rule as ApiRule, `apps[${a}].rules[${r}]`, rule.ruleId, rule.priority));
  });
  if (found.length === 0 && fingerprintRules(rules) !== app.fingerprint) {
    found.push({
      path: ['apps', a, 'fingerprint'],
      message: `the fingerprint of app ${JSON.stringify(app.app)} does not match its rules: the snapshot was edited or damaged; take a new one with botrules live`,
    });
  }
  return { app: app.app, fingerprint: app.fingerprint, rules };
}

function patternMessage(property: string | undefined): string {
  if (property === 'takenAt') return 'must be an ISO 8601 UTC date-time such as 2026-01-31T09:30:00.000Z';
  return `is not a sha256:<64 hex digits> ${property === 'integrity' ? 'integrity value' : 'fingerprint'}`;
}

function schemaProblem(error: ErrorObject): Located {
  const path = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const asPath = path.map((token) => (/^\d+$/.test(token) ? Number(token) : token));
  switch (error.keyword) {
    case 'additionalProperties':
      return { path: asPath, message: `unexpected property "${String(params.additionalProperty)}"` };
    case 'required':
      return { path: asPath, message: `missing property "${String(params.missingProperty)}"` };
    case 'enum':
      return { path: asPath, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'const':
      return { path: asPath, message: `must be ${JSON.stringify(params.allowedValue)} (this botrules reads live snapshots of formatVersion ${LIVE_SNAPSHOT_FORMAT_VERSION}; take a new one with botrules live)` };
    case 'pattern':
      return { path: asPath, message: patternMessage(path.at(-1)) };
    default:
      return { path: asPath, message: `${path.length === 0 ? 'the snapshot' : path.at(-1)} ${error.message ?? 'is invalid'}` };
  }
}

/**
 * Turns paths into `FILE:LINE:COL` problems. Only on the error path: reading the text a
 * second time with the YAML parser (JSON is YAML) gives every node's position.
 */
function locate(text: string, file: string, found: readonly Located[]): Problem[] {
  const parsed = text.length <= MAX_LOCATED_CHARS ? yamlReading(text) : undefined;
  if (parsed === undefined) return found.map(({ path, message }) => ({ file, line: 1, col: 1, message: `${message} (at ${jsonPath(path)})` }));
  const { document, lineCounter } = parsed;
  return found.map(({ path, message }) => {
    const node = document.getIn(path, true);
    const offset = isNode(node) && node.range ? node.range[0] : 0;
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col, message };
  });
}

/** The text read as YAML for its positions, or undefined when the reader gives up (nesting deeper than its stack). */
function yamlReading(text: string): ReturnType<typeof parseYamlDocument> | undefined {
  try {
    return parseYamlDocument(text);
  } catch {
    return undefined;
  }
}

/** `apps[0].rules[3].ruleId` */
function jsonPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? key : `${out}.${key}`), '') || 'the top level';
}

function syntaxProblem(text: string, file: string, error: unknown): Problem {
  const why = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(why);
  const before = text.slice(0, position?.[1] === undefined ? 0 : Number(position[1]));
  const line = before.split('\n').length;
  const col = before.length - before.lastIndexOf('\n');
  return { file, line, col, message: `not valid JSON (${why.replace(/ in JSON at position \d+.*$/, '')}): a live snapshot is written by botrules live --out FILE` };
}

/**
 * Where `plan --live` reads each app's rules: the snapshot, never the service. A plan never
 * patches; a patch through this source is a bug, so it fails loudly rather than pretending.
 * Each app's rules are handed over, not copied, to the one listing of that app, and the source
 * keeps none of them: a plan's analyses then run beside one copy of the live rules, not two
 * (their peak memory grows with what is alive when they start; bench/README.md, "Plan and apply
 * (whole process)"). The rules are the reader's own objects (readLiveSnapshot makes each anew).
 */
export function snapshotSource(snapshot: LiveSnapshot, file: string): (app: { name: string }) => RulesApi {
  const apps = snapshot.apps.map((entry) => entry.app);
  const unlisted = new Map(snapshot.apps.map((entry) => [entry.app, entry.rules]));
  return (app) => {
    const rules = unlisted.get(app.name);
    if (rules === undefined) {
      if (apps.includes(app.name)) throw new Error(`internal: app ${JSON.stringify(app.name)} was listed twice from the live snapshot ${file}`);
      throw notInSnapshot(apps, app.name, file);
    }
    unlisted.delete(app.name);
    return {
      listRules: () => Promise.resolve(rules),
      patchRule: () => Promise.reject(new Error(`internal: a patch was attempted against the live snapshot ${file}`)),
    };
  };
}
