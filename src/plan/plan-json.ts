// Reading a saved plan back (contract §4 format). A plan file drives PATCH requests, so it
// is checked against schemas/plan.schema.json before anything trusts it: a body can only
// hold fields the API accepts, never `ruleId`. Every failure is a UserError whose message
// says what is wrong and where in the file.
import type { ErrorObject } from 'ajv';
import { UserError } from '../errors.js';
import { validatePlan } from '../generated/validators.js';
import type { AppPlan } from './types.js';

export const PLAN_FORMAT_VERSION = 1;

/** Schema errors listed after the first one, at most. */
const MAX_LISTED_ERRORS = 10;

/** Parses plan text (the content of a `plan --out` file). `source` names it in messages. */
export function parsePlanText(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UserError(`${source} is not a botrules plan: it is not valid JSON (${why})`, [
      'Write a plan with: botrules plan --out FILE',
    ]);
  }
}

/** Validates a parsed plan and returns its apps. */
export function appPlansFromJSON(value: unknown, source: string): AppPlan[] {
  const version = isObject(value) ? value.formatVersion : undefined;
  if (version !== PLAN_FORMAT_VERSION) {
    const found = version === undefined ? 'no formatVersion' : `formatVersion ${JSON.stringify(version)}`;
    throw new UserError(
      `${source} is not a plan this botrules can apply: it has ${found}, and this version reads formatVersion ${PLAN_FORMAT_VERSION}`,
      ['Write the plan again with this version: botrules plan --out FILE'],
    );
  }
  // Compiled from schemas/plan.schema.json at build time (scripts/build-validators.js).
  if (!validatePlan(value)) {
    const [first, ...rest] = (validatePlan.errors ?? []).map(describeSchemaError);
    throw new UserError(
      `${source} is not a valid botrules plan: ${first ?? 'it does not match the plan schema'}`,
      [
        ...rest.slice(0, MAX_LISTED_ERRORS),
        ...(rest.length > MAX_LISTED_ERRORS ? [`and ${rest.length - MAX_LISTED_ERRORS} more problems`] : []),
        'Plan files are written by botrules plan --out; edit them only if you know the format.',
      ],
    );
  }
  return (value as unknown as SerialisedPlan).apps.map(toAppPlan);
}

interface SerialisedPlan {
  apps: AppPlan[];
}

/** Copies only the known fields, so nothing else from the file travels further. */
function toAppPlan(app: SerialisedPlan['apps'][number]): AppPlan {
  const plan: AppPlan = {
    app: app.app,
    fingerprint: app.fingerprint,
    steps: app.steps.map((step) => ({
      ruleId: step.ruleId,
      name: step.name,
      reasons: [...step.reasons],
      body: structuredClone(step.body),
    })),
    blocked: app.blocked.map((rule) => ({ ...rule, ...(rule.source ? { source: { ...rule.source } } : {}) })),
    unmanaged: app.unmanaged.map((rule) => ({ ruleId: rule.ruleId, name: rule.name })),
  };
  if (app.liveDigests !== undefined) plan.liveDigests = { ...app.liveDigests };
  return plan;
}

/** `apps[0].steps[2].body: must NOT have additional property "ruleId"`. */
function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the top level' : pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return `${where}: unexpected property "${String(params.additionalProperty)}"`;
  }
  if (error.keyword === 'required') return `${where}: missing property "${String(params.missingProperty)}"`;
  if (error.keyword === 'enum') {
    return `${where}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where}: ${error.message ?? 'is invalid'}`;
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
