// What a person does in the service's web console, which the service's API cannot do:
// create a rule and delete one (docs/behaviour.md, "The console"). Served by the emulator on
// its own path, outside the service API (docs/service-api.md is unchanged), so the add-a-rule
// and remove-a-rule stories can be rehearsed end to end. The app is the one whose server
// token the request carries, as for the rule API.
import { randomUUID } from 'node:crypto';
import { STATUSES, type Conditions, type Rule, type Status } from '../semantics/model.js';
import { failure, liveRule, type ApiAnswer } from './rules-api.js';
import type { StoredApp } from './state.js';

export const CONSOLE_PATH = '/emulator-console/rules';

/**
 * What a console rule gets for the fields the request leaves out: a console user types a
 * name, and the form fills in the rest. The default conditions match one path no one uses,
 * so a placeholder left active still decides nothing real.
 */
const PLACEHOLDER_CONDITIONS: Conditions = {
  operator: '$or',
  children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/botrules-placeholder' }] }],
};

/** POST: create a rule from `{ name, status?, position? }`; the answer holds it with its new ruleId. */
export function consoleCreate(app: StoredApp, body: unknown): ApiAnswer & { changed: boolean } {
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const { name, status = 'active', position = app.rules.length + 1 } = fields;
  if (typeof name !== 'string' || name.trim() === '') return failure(400, 'a console rule needs a name');
  if (!STATUSES.includes(status as Status)) return failure(400, `status must be one of ${STATUSES.join(', ')}`);
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 1 || position > app.rules.length + 1) {
    return failure(400, `position must be a whole number from 1 to ${app.rules.length + 1}`);
  }
  const rule: Rule & { ruleId: string } = {
    ruleId: randomUUID(),
    name,
    description: '',
    status: status as Status,
    actions: ['blockWithChallenge'],
    conditions: structuredClone(PLACEHOLDER_CONDITIONS),
  };
  app.rules.splice(position - 1, 0, rule);
  return { status: 201, body: { result: true, message: 'created', content: liveRule(rule, position - 1) }, changed: true };
}
