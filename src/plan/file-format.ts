// Reading a saved plan back (docs/behaviour.md, "Plan format"). A plan file drives PATCH
// requests, so it is checked against schemas/plan.schema.json before anything trusts it: a
// body can only hold fields the API accepts, never `ruleId`, and every step must agree with
// itself (its kind, its changes and its body). Every failure is a UserError whose message
// says what is wrong and where in the file. Even a valid file is not trusted to describe
// the live rules: apply re-plans and compares (src/apply/saved-plan.ts).
import { UserError } from '../errors.js';
import { MAX_JSON_FILE_BYTES } from '../io/capped-read.js';
import { isObject, jsonTooDeep } from '../io/json-depth.js';
import { schemaErrorLines } from '../io/schema-messages.js';
import { sameJson } from './compare.js';
import { validatePlan } from '../generated/validators.js';
import { normaliseLiveRule } from '../semantics/normalise.js';
import type { UnmanagedFate } from './counts.js';
import type { PlanLifetimes } from './lifetimes.js';
import type { Risk } from './risks.js';
import type { TrafficVerdict } from './traffic-limit.js';
import { mapReasons, type AppPlan, type BlockedRule, type PlanStep, type RestoredRule, type SavedWords, type TransitionCheck, type UnmanagedRule } from './types.js';
import { definedFields } from '../defined.js';

/**
 * 2: typed steps (`kind`, `changes`) replaced `reasons`; undo plans carry `restore`.
 * 3: apps carry `risks` (what the plan loosens) and the plan its `notes`, so a saved plan
 * shows what a fresh one does; apps may carry `replay` (plan --replay's verdict, for
 * maxNewlyBlocked) and `transitions` (the transition check of the steps' order), the plan its
 * `behaviourDiff` and `replay` (the replay report; both read back, ignored); steps may
 * carry `dropsUnknown` (added without a new version before, so an older botrules refused such
 * files with a schema error instead of this message). Steps of kind `create` and `delete`
 * (service.create / service.delete) came without a new version: an older botrules refuses
 * them with a schema error, and a plan without them reads as before.
 */
export const PLAN_FORMAT_VERSION = 3;

/** What each older version lacks, for the message that refuses it. */
const OLDER_VERSIONS: Readonly<Record<number, string>> = {
  1: 'older plans do not record what each step changes, so they cannot be checked',
  2: 'older plans do not record what the plan loosens, so they cannot show the reviewer what a fresh plan shows',
};

/** Schema errors listed after the first one, at most. */
const MAX_LISTED_ERRORS = 10;

/** Marks a plan computed from a live snapshot (`plan --live`) rather than from the service. */
export interface PlanSnapshot {
  takenAt: string;
}

export interface SerialisedApp {
  app: string;
  fingerprint: string;
  liveRules: number;
  /** A delete step has no body; create and delete steps carry their position. */
  steps: (Pick<PlanStep, 'ruleId' | 'name' | 'kind' | 'dropsUnknown' | 'changes'> & { body?: PlanStep['body']; position?: number })[];
  /** Each with its reason in words (the one a blocked rule has); read back, the words are not kept. */
  blocked: (BlockedRule & { reason: string })[];
  unmanaged: (UnmanagedRule & { fate?: UnmanagedFate })[];
  liveDigests?: Record<string, string>;
  restore?: RestoredRule[];
  /** What loosens, in words: a sentence fragment after the rule's name. */
  risks?: (Omit<Risk, 'app' | 'loosens'> & { what: string })[];
  replay?: TrafficVerdict;
  transitions?: SerialisedTransitions;
}

/** The transition check as the file words it: what decides in each window, and one sentence for each part not checked. */
type SerialisedTransitions = TransitionCheck<string, string>;

/** The summary's further counts (see counts.ts); the required three come first. */
type SummaryCount = 'updates' | 'moves' | 'updatesAndMoves' | 'pauses' | 'creates' | 'deletes' | 'positionChanges' | 'removed' | 'removedActive';

export interface SerialisedPlan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  snapshot?: PlanSnapshot;
  notes?: string[];
  /** Rule lifetimes the plan names (lifetimes.ts): a review aid, read back for rendering only. */
  lifetimes?: PlanLifetimes;
  apps: SerialisedApp[];
  summary: { patches: number; blocked: number; unmanaged: number } & Partial<Record<SummaryCount, number>>;
  /** The exhaustive behaviour diff, when plan computed it; read back, it is ignored (docs/behaviour.md, "Plan format"). */
  behaviourDiff?: object[];
  /** The replay report of plan --replay (docs/replay.md, "The report"); read back, it is ignored. */
  replay?: object;
  /** The policy checks of the planned rules (docs/behaviour.md, "Policies"); read back, they are ignored. */
  policies?: object[];
}

export interface ParsedPlan {
  apps: AppPlan[];
  snapshot?: PlanSnapshot;
  /** Review aids the file carries, in its words: a renderer of the file shows them; apply works them out again. */
  risks: Risk[];
  notes: SavedWords[];
  lifetimes?: PlanLifetimes;
}

/** Parses plan text (the content of a `plan --out` file). `source` names it in messages. */
export function parsePlanText(text: string, source: string): unknown {
  // Whoever read the file checked its size in bytes; a string handed in directly is checked here.
  if (text.length > MAX_JSON_FILE_BYTES) {
    throw new UserError(`${source} is more than the ${MAX_JSON_FILE_BYTES / (1024 * 1024)} MiB botrules reads in a plan`, ['Write a plan with: botrules plan --out FILE']);
  }
  const tooDeep = jsonTooDeep(text);
  if (tooDeep) throw new UserError(`${source}:${tooDeep.line}:${tooDeep.col}: the plan ${tooDeep.message}`, ['Write a plan with: botrules plan --out FILE']);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UserError(`${source} is not a botrules plan: it is not valid JSON (${why})`, [
      'Write a plan with: botrules plan --out FILE',
    ]);
  }
}

/** Validates a parsed plan; returns its apps (steps in the file's order) and snapshot mark. */
export function parsePlan(value: unknown, source: string): ParsedPlan {
  refuseOtherVersions(value, source);
  // Compiled from schemas/plan.schema.json at build time (scripts/build-validators.js).
  if (!validatePlan(value)) {
    const [first, ...rest] = schemaErrorLines(validatePlan.errors ?? [], value);
    throw new UserError(`${source} is not a valid botrules plan: ${first ?? 'it does not match the plan schema'}`, [
      ...rest.slice(0, MAX_LISTED_ERRORS),
      ...(rest.length > MAX_LISTED_ERRORS ? [`and ${rest.length - MAX_LISTED_ERRORS} more problems`] : []),
      'Plan files are written by botrules plan --out; edit them only if you know the format.',
    ]);
  }
  const plan = value as unknown as SerialisedPlan;
  plan.apps.forEach((app, a) =>
    app.steps.forEach((step, s) => {
      const problem = inconsistency(step);
      if (problem !== undefined) throw new UserError(`${source} is not a valid botrules plan: apps[${a}].steps[${s}]: ${problem}`);
    }),
  );
  return {
    apps: plan.apps.map(toAppPlan),
    ...definedFields({ snapshot: plan.snapshot && { takenAt: plan.snapshot.takenAt } }),
    risks: plan.apps.flatMap((app) => (app.risks ?? []).map((risk) => ({ app: app.app, ruleId: risk.ruleId, name: risk.name, loosens: savedWords(risk.what) }))),
    notes: (plan.notes ?? []).map(savedWords),
    ...definedFields({ lifetimes: plan.lifetimes && { evaluatedAt: plan.lifetimes.evaluatedAt, events: plan.lifetimes.events.map((event) => ({ ...event, source: { ...event.source } })) } }),
  };
}

function refuseOtherVersions(value: unknown, source: string): void {
  const version = isObject(value) ? value.formatVersion : undefined;
  if (version === PLAN_FORMAT_VERSION) return;
  const found = version === undefined ? 'no formatVersion' : `formatVersion ${JSON.stringify(version)}`;
  const older = typeof version === 'number' ? OLDER_VERSIONS[version] : undefined;
  throw new UserError(
    `${source} is not a plan this botrules can apply: it has ${found}, and this version reads formatVersion ${PLAN_FORMAT_VERSION}` +
      (older === undefined ? '' : ` (${older})`),
    ['Write the plan again with this version: botrules plan --out FILE'],
  );
}

/**
 * Why a step disagrees with itself, or undefined: its body must send exactly the after
 * values of its field changes (plus `priority` for a move), and its kind must match.
 */
function inconsistency(step: SerialisedApp['steps'][number]): string | undefined {
  if (step.kind === 'create' || step.kind === 'delete') return undefined;
  const { priority, ...fields } = step.body ?? {};
  const fieldChanges = step.changes.filter((c) => c.field !== 'priority');
  const moves = step.changes.filter((c) => c.field === 'priority');
  const seen = new Set(step.changes.map((c) => c.field));
  if (seen.size !== step.changes.length) return 'a field is listed twice in changes';
  const expected = Object.fromEntries(fieldChanges.map((c) => [c.field, c.after]));
  if (!sameJson(fields, expected)) return 'the body does not send exactly the after values of its changes';
  if ((priority === undefined) !== (moves.length === 0)) return 'the body has a priority exactly when a change moves the rule';
  // A move may end where it started (the rules around it move); a field change must change it.
  for (const change of fieldChanges) if (sameJson(change.before, change.after)) return `change of ${change.field} changes nothing`;
  if (step.changes.length === 0) return 'a step must change something';
  const [only] = step.changes;
  const pauseShape = step.changes.length === 1 && only?.field === 'status' && only.after === 'paused';
  const kinds =
    moves.length > 0 ? [fieldChanges.length === 0 ? 'move' : 'update-and-move'] : pauseShape ? ['update', 'pause-unmanaged'] : ['update'];
  return kinds.includes(step.kind) ? undefined : `kind ${step.kind} does not match its changes (${kinds.join(' or ')})`;
}

/** Copies only the known fields, so nothing else from the file travels further. */
function toAppPlan(app: SerialisedApp): AppPlan {
  const plan: AppPlan = {
    app: app.app,
    fingerprint: app.fingerprint,
    liveRules: app.liveRules,
    steps: app.steps.map(
      (step) =>
        structuredClone({
          ruleId: step.ruleId, name: step.name, kind: step.kind, body: step.body ?? {},
          ...definedFields({ position: step.position, dropsUnknown: step.dropsUnknown }),
          changes: step.changes,
        }) as PlanStep,
    ),
    blocked: app.blocked.map(({ reason: _words, ...rule }) => ({ ...rule, ...definedFields({ source: rule.source && { ...rule.source } }) })),
    unmanaged: app.unmanaged.map((rule) => ({
      ruleId: rule.ruleId,
      name: rule.name,
      ...definedFields({ status: rule.status, removedFromFiles: rule.removedFromFiles }),
    })),
  };
  if (app.liveDigests !== undefined) plan.liveDigests = { ...app.liveDigests };
  if (app.replay !== undefined) plan.replay = structuredClone(app.replay);
  // Shown, and it keeps the order; apply checks the order's transitions again (src/apply/saved-plan.ts).
  if (app.transitions !== undefined) plan.transitions = mapReasons(structuredClone(app.transitions), savedWords, savedWords);
  // The plan-file boundary: recorded rules become the normal form, as listed rules do.
  if (app.restore !== undefined) plan.restore = app.restore.map((rule, index) => normaliseLiveRule(rule, `restore[${index}]`, rule.ruleId, rule.priority));
  return plan;
}

function savedWords(text: string): SavedWords {
  return { kind: 'saved', text };
}
