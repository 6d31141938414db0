// The custom-rule operations (docs/service-api.md, "List custom rules", "Update a rule") over
// the stored state, and, behind `--capabilities create,delete`, creating and deleting a rule
// as the service's public reference documents them ("Create custom rule", "Delete rule by ID").
// Priority is a rule's index in its app's list; a PATCH that sets `priority` moves the rule
// with list-move semantics (remove, insert at the index, the others shift), or, for tests
// of the tool's verify-and-correct pass, swaps it with the rule at that index.
import { randomUUID } from 'node:crypto';
import { insertInList, moveInList } from '../semantics/list-move.js';
import type { ListedRule, StoredApp, StoredRule } from './state.js';
import type { MoveSemantics } from './options.js';
import { checkPatchBody, checkPostBody, PatchInvalid } from './validate-patch.js';

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** A copy of a stored rule as the API shows it: ruleId first, priority = its index. */
export function liveRule(rule: StoredRule, priority: number): ListedRule {
  return structuredClone(listed(rule, priority));
}

/** The rule as the API shows it, sharing the stored rule's nested objects. */
function listed({ ruleId, ...fields }: StoredRule, priority: number): ListedRule {
  return { ruleId, ...fields, priority };
}

/**
 * The list as the API shows it. Views share the stored rules' nested objects instead of
 * cloning them: the server serialises an answer as soon as it is built, before any other
 * request can change the state, and cloning thousands of rules would make the emulator, not
 * the client, the slowest part of a large plan.
 */
export function listRulesAnswer(app: StoredApp): ApiAnswer {
  return { status: 200, body: { result: true, message: 'ok', content: app.rules.map(listed) } };
}

/** Applies a PATCH; `changed` tells the caller whether the state must be saved. */
export function patchRuleAnswer(app: StoredApp, ruleId: string, body: unknown, semantics: MoveSemantics): ApiAnswer & { changed: boolean } {
  const index = app.rules.findIndex((r) => r.ruleId === ruleId);
  if (index < 0) return failure(404, `no custom rule with ruleId ${ruleId}`);
  const patch = checked(() => checkPatchBody(body, app.rules.length));
  if (patch instanceof PatchInvalid) return failure(400, patch.message);
  // api.md leaves a body ruleId that differs from the path unspecified. Refusing it is the
  // safer reading: a client that sends one has mixed up two rules, and changing either
  // would be wrong.
  if (patch.ruleId !== undefined && patch.ruleId !== ruleId) {
    return failure(400, `the body's ruleId ${patch.ruleId} does not match the ruleId ${ruleId} in the path`);
  }
  const rule = app.rules[index] as StoredRule;
  const { ruleId: _ignored, priority, ...fields } = patch;
  Object.assign(rule, fields);
  const finalIndex = priority === undefined ? index : move(app.rules, index, priority, semantics);
  const changed = Object.keys(fields).length > 0 || finalIndex !== index;
  return { status: 200, body: { result: true, message: 'ok', content: liveRule(rule, finalIndex) }, changed };
}

/**
 * POST on the collection: a new rule from the whole rule in the body, inserted at `priority`
 * (list-insert: the rule there and those below move down one; at the end without one). The
 * answer's `content` is the rule with its new ruleId and its priority.
 */
export function createRuleAnswer(app: StoredApp, body: unknown): ApiAnswer & { changed: boolean } {
  const post = checked(() => checkPostBody(body, app.rules.length));
  if (post instanceof PatchInvalid) return failure(400, post.message);
  const { ruleId: _none, priority, ...fields } = post;
  const rule: StoredRule = { ruleId: randomUUID(), description: '', ...fields } as StoredRule;
  const index = insertInList(app.rules, priority ?? app.rules.length, rule);
  return { status: 200, body: { result: true, message: 'created', content: liveRule(rule, index) }, changed: true };
}

/** DELETE by ruleId: the rule is gone and the rules below it move up one; the answer holds the rule as it was. */
export function deleteRuleAnswer(app: StoredApp, ruleId: string): ApiAnswer & { changed: boolean } {
  const index = app.rules.findIndex((rule) => rule.ruleId === ruleId);
  if (index < 0) return failure(404, `no custom rule with ruleId ${ruleId}`);
  const [removed] = app.rules.splice(index, 1) as [StoredRule];
  return { status: 200, body: { result: true, message: 'deleted', content: liveRule(removed, index) }, changed: true };
}

/** Moves rules[from] to position `to` (within the list: checkPatchBody checked it); returns the rule's new index. */
function move(rules: StoredRule[], from: number, to: number, semantics: MoveSemantics): number {
  if (from === to) return to;
  if (semantics === 'swap') {
    const other = rules[to] as StoredRule;
    rules[to] = rules[from] as StoredRule;
    rules[from] = other;
    return to;
  }
  // The list-move the planner simulates (src/semantics/list-move.ts): one function, so the two agree.
  return moveInList(rules, from, to);
}

/** The checked body, or the PatchInvalid that refused it (anything else is a bug and thrown). */
function checked<T>(check: () => T): T | PatchInvalid {
  try {
    return check();
  } catch (err) {
    if (err instanceof PatchInvalid) return err;
    throw err;
  }
}

export function failure(status: number, message: string): ApiAnswer & { changed: false } {
  return { status, body: { result: false, message }, changed: false };
}
