// Random live/declared pairs for property tests: random order, random field edits (real
// ones and cosmetic ones that must not count), random unmanaged and blocked rules.
import fc from 'fast-check';
import type { Action, Conditions, DeclaredRule, LiveRule, Rule, Status } from '../../src/semantics/model.js';
import { declared as declaredRule, live as liveRule } from '../helpers/rules.js';

export type Policy = 'keep' | 'pause';

export interface Scenario {
  live: LiveRule[];
  declared: DeclaredRule[];
  policy: Policy;
  /** Rule ids no declared rule matches. */
  unmanaged: Set<string>;
}

const CONDITION_POOL: Conditions[] = [
  {
    operator: '$or',
    children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$contains', value: 'bot' }, { conditionType: 'path', operator: '$startsWith', value: '/api' }] }],
  },
  {
    operator: '$or',
    children: [
      { operator: '$and', children: [{ conditionType: 'country', operator: '$in', value: ['FR', 'DE'] }] },
      { operator: '$or', children: [{ conditionType: 'header', fieldOption: 'x-bot', operator: '$exists' }] },
    ],
  },
  {
    operator: '$and',
    children: [{ operator: '$and', children: [{ conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24'] }, { conditionType: 'httpMethod', operator: '$eq', value: 'POST' }] }],
  },
];

const fields = fc.record({
  description: fc.constantFrom('', 'x', 'y'),
  status: fc.constantFrom<Status>('active', 'paused'),
  actions: fc.subarray<Action>(['allow', 'blockWithChallenge', 'hardBlock'], { minLength: 1 }),
  conditions: fc.integer({ min: 0, max: CONDITION_POOL.length - 1 }),
});

const edit = fc.record({
  description: fc.option(fc.constantFrom('', 'x', 'y', 'z'), { nil: undefined }),
  status: fc.option(fc.constantFrom<Status>('active', 'paused'), { nil: undefined }),
  actions: fc.option(fc.subarray<Action>(['allow', 'blockWithChallenge', 'hardBlock'], { minLength: 1 }), { nil: undefined }),
  conditions: fc.option(fc.integer({ min: 0, max: CONDITION_POOL.length - 1 }), { nil: undefined }),
  /** Reverse leaves, groups and actions: never a change. */
  cosmetic: fc.boolean(),
  pinById: fc.boolean(),
});

function perRule<T>(n: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.array(arb, { minLength: n, maxLength: n });
}

export interface ScenarioOptions {
  maxRules: number;
  /** Allow field edits (off: only reordering and cosmetic edits). */
  edits?: boolean;
  /** Allow unmanaged and blocked rules. */
  unmanaged?: boolean;
}

export function scenarios(options: ScenarioOptions): fc.Arbitrary<Scenario> {
  return fc.integer({ min: 0, max: options.maxRules }).chain((n) =>
    fc
      .record({
        live: perRule(n, fields),
        managed: perRule(n, options.unmanaged === false ? fc.constant(true) : fc.boolean()),
        edits: perRule(n, edit),
        sortKeys: perRule(n, fc.integer({ min: 0, max: 3 * n + 3 })),
        blockedAt: options.unmanaged === false ? fc.constant<number[]>([]) : fc.array(fc.integer({ min: 0, max: n }), { maxLength: 2 }),
        policy: fc.constantFrom<Policy>('keep', 'pause'),
      })
      .map((raw) => buildScenario(raw, options.edits !== false)),
  );
}

interface RawScenario {
  live: { description: string; status: Status; actions: Action[]; conditions: number }[];
  managed: boolean[];
  edits: {
    description: string | undefined;
    status: Status | undefined;
    actions: Action[] | undefined;
    conditions: number | undefined;
    cosmetic: boolean;
    pinById: boolean;
  }[];
  sortKeys: number[];
  blockedAt: number[];
  policy: Policy;
}

function buildScenario(raw: RawScenario, withEdits: boolean): Scenario {
  const live: LiveRule[] = raw.live.map((f, index) =>
    liveRule({
      ruleId: `id-${index}`,
      priority: index,
      name: `rule ${index}`,
      description: f.description,
      status: f.status,
      actions: f.actions,
      conditions: structuredClone(CONDITION_POOL[f.conditions] as Conditions),
    }),
  );
  const managedIndices = live.map((_, i) => i).filter((i) => raw.managed[i]);
  const order = [...managedIndices].sort((a, b) => (raw.sortKeys[a] as number) - (raw.sortKeys[b] as number) || a - b);
  const declaredRules: Rule[] = order.map((i) => declaredVersion(live[i] as LiveRule, raw.edits[i] as RawScenario['edits'][number], withEdits));
  for (const [k, at] of raw.blockedAt.entries()) {
    declaredRules.splice(Math.min(at, declaredRules.length), 0, { ...fieldsOf(live[0]), name: `not live ${k}` } as Rule);
  }
  const declared = declaredRules.map((r, index) => declaredRule({ ...r, source: { file: 'rules/all.yaml', line: index + 1, col: 3 } }));
  const unmanaged = new Set(live.filter((_, i) => !raw.managed[i]).map((r) => r.ruleId));
  return { live, declared, policy: raw.policy, unmanaged };
}

function fieldsOf(rule: LiveRule | undefined): Omit<Rule, 'name'> {
  if (rule === undefined) {
    return { description: '', status: 'active', actions: ['allow'], conditions: structuredClone(CONDITION_POOL[0] as Conditions) };
  }
  const { ruleId: _id, priority: _p, name: _n, ...rest } = structuredClone(rule);
  return rest;
}

function declaredVersion(rule: LiveRule, e: RawScenario['edits'][number], withEdits: boolean): Rule {
  const { priority: _p, ruleId, ...copy } = structuredClone(rule);
  const out: Rule = e.pinById ? { ...copy, ruleId } : copy;
  if (withEdits) {
    if (e.description !== undefined) out.description = e.description;
    if (e.status !== undefined) out.status = e.status;
    if (e.actions !== undefined) out.actions = [...e.actions];
    if (e.conditions !== undefined) out.conditions = structuredClone(CONDITION_POOL[e.conditions] as Conditions);
  }
  if (e.cosmetic) {
    out.actions = [...out.actions].reverse();
    out.conditions = {
      operator: out.conditions.operator,
      children: [...out.conditions.children].reverse().map((g) => ({ operator: g.operator, children: [...g.children].reverse() })),
    };
  }
  return out;
}
