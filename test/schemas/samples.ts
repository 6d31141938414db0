// Valid documents of every schema in schemas/, as the tool writes or reads them. The
// validator test mutates them node by node, so each one touches as many keywords as it can:
// every optional field, both value shapes, each if/then branch of the rule-file leaf.
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

const ROOT = new URL('../../', import.meta.url);

function yamlFile(path: string): unknown {
  return parse(readFileSync(new URL(path, ROOT), 'utf8')) as unknown;
}

const conditions = {
  operator: '$or',
  children: [
    {
      operator: '$and',
      children: [
        { conditionType: 'userAgent', operator: '$contains', value: 'crawler' },
        { conditionType: 'socketIps', operator: '$in', value: ['198.51.100.0/24', '203.0.113.7'] },
        { conditionType: 'header', fieldOption: 'x-client', operator: '$exists' },
        { conditionType: 'path', operator: '$re', value: '^/api/v[0-9]+' },
      ],
    },
    { operator: '$and', children: [{ conditionType: 'queryParam', fieldOption: 'q', operator: '$eq', value: 'x' }] },
  ],
};

export const ruleFiles: unknown[] = [
  ...readdirSync(new URL('rules/', ROOT)).filter((f) => f.endsWith('.yaml')).sort().map((f) => yamlFile(`rules/${f}`)),
  {
    rules: [
      { name: 'block crawlers', ruleId: 'r-1', description: 'crawlers', status: 'paused', actions: ['hardBlock'], conditions },
      { name: 'allow all', actions: ['allow', 'blockWithChallenge'], conditions: { operator: '$and', children: [] } },
    ],
  },
];

export const configFiles: unknown[] = [
  { apps: [{ name: 'default', rulesDir: 'rules' }] },
  {
    unmanaged: 'pause',
    maxChanges: 20,
    apps: [
      { name: 'shop.eu', rulesDir: 'rules/shop', tokenEnv: 'BOTRULES_SHOP_TOKEN', unmanaged: 'fail', maxChanges: 5 },
      { name: 'blog', rulesDir: 'rules/blog' },
    ],
  },
];

const liveRule = {
  ruleId: '00000000-0000-4000-8000-000000000001',
  priority: 0,
  name: 'block crawlers',
  description: 'crawlers',
  status: 'active',
  actions: ['blockWithChallenge', 'hardBlock'],
  conditions,
};

export const listAnswers: unknown[] = [
  { result: true, message: 'ok', content: [liveRule, { ...liveRule, ruleId: 'r-2', priority: 1, status: 'paused' }] },
  { content: [] },
];

export const updateAnswers: unknown[] = [
  { result: true, message: 'updated', content: liveRule },
  { result: true, content: { name: 'n', status: 'paused', actions: [], conditions: {} } },
];

const digest = (c: string) => `sha256:${c.repeat(64)}`;

export const plans: unknown[] = [
  {
    formatVersion: 3,
    notes: ['The git history is shallow: rules removed before its first commit are not recognised as removed (check out with fetch-depth: 0).'],
    apps: [
      {
        app: 'default',
        fingerprint: digest('a'),
        liveRules: 3,
        steps: [
          {
            ruleId: 'r-1',
            name: 'block crawlers',
            kind: 'update-and-move',
            body: { name: 'block crawlers', description: 'd', status: 'paused', actions: ['allow'], conditions, priority: 3 },
            changes: [
              { field: 'name', before: 'crawlers', after: 'block crawlers' },
              { field: 'description', before: '', after: 'd' },
              { field: 'status', before: 'active', after: 'paused' },
              { field: 'actions', before: ['hardBlock'], after: ['allow'] },
              { field: 'conditions', before: { operator: '$or', children: [] }, after: conditions },
              { field: 'priority', before: 0, after: 2 },
            ],
          },
          { ruleId: 'r-2', name: 'other', kind: 'pause-unmanaged', body: { status: 'paused' }, changes: [{ field: 'status', before: 'active', after: 'paused' }] },
        ],
        blocked: [{ name: 'new rule', reason: 'no live rule of that name', source: { file: 'rules/a.yaml', line: 2, col: 5 } }],
        unmanaged: [{ ruleId: 'r-9', name: 'console rule' }],
        liveDigests: { 'r-1': digest('b'), 'r-2': digest('c') },
        restore: [{ ruleId: 'r-1', priority: 0, name: 'crawlers', description: '', status: 'active', actions: ['hardBlock'], conditions }],
        risks: [{ ruleId: 'r-1', name: 'block crawlers', what: 'actions weakened from hardBlock to allow' }],
      },
    ],
    summary: { patches: 2, blocked: 1, unmanaged: 1 },
  },
  { formatVersion: 3, snapshot: { takenAt: '2026-01-02T03:04:05.000Z' }, apps: [], summary: { patches: 0, blocked: 0, unmanaged: 0 } },
];

export const policies: unknown[] = [
  yamlFile('scripts-policy.yaml'),
  {
    approved: [
      { id: 'https://cdn.example.com/a.js', justification: 'needed', owner: 'web' },
      { pattern: 'https://js.example.com/*', justification: 'checkout', owner: 'payments', expires: '2030-01-31' },
      { vendor: 'Example', justification: 'analytics', owner: 'data' },
    ],
  },
];

export const snapshots: unknown[] = [
  {
    formatVersion: 1,
    query: {
      appId: ['app-demo'],
      tld: ['shop.example.com'],
      from: '2025-01-01T00:00:00.000Z',
      to: '2025-01-02T00:00:00.000Z',
      fromMs: 1735689600000,
      toMs: 1735776000000,
    },
    takenAt: '2025-01-02T00:00:01.000Z',
    tool: { name: 'botrules', version: '0.1.0' },
    policy: { file: 'scripts-policy.yaml' },
    count: 1,
    warnings: ['one page was empty'],
    records: [
      {
        key: 'k1',
        id: 'https://js.example.com/a.js',
        app_id: 'app-demo',
        host_domain: 'shop.example.com',
        type: 'script',
        vendor: 'Example',
        first_seen: '2025-01-01',
        last_seen: '2025-01-02',
        risk: { level: 'low', reason: 'known vendor' },
        users_affected_percentage: 12.5,
        ack: false,
        page_types: ['checkout'],
        approved: true,
        approvedBy: 'pattern https://js.example.com/*',
        approvalNote: 'checkout',
      },
    ],
  },
];

export const liveSnapshots: unknown[] = [
  {
    formatVersion: 2,
    takenAt: '2026-01-31T09:30:00.000Z',
    apps: [
      {
        app: 'shop',
        fingerprint: `sha256:${'a'.repeat(64)}`,
        rules: [
          {
            ruleId: '3f2a9c1e-8d4b-4c1a-9e2f-0a1b2c3d4e5f',
            name: 'Allow uptime monitors',
            description: '',
            status: 'active',
            actions: ['allow'],
            conditions: {
              operator: '$or',
              children: [{ operator: '$and', children: [{ conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }, { conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24'] }] }],
            },
            priority: 0,
          },
        ],
      },
      { app: 'blog', fingerprint: `sha256:${'b'.repeat(64)}`, rules: [] },
    ],
    integrity: `sha256:${'c'.repeat(64)}`,
  },
];

/** PATCH bodies the emulator accepts: every field, every leaf shape, unknown fields inside the tree. */
export const patchBodies: unknown[] = [
  {
    ruleId: 'r-1', name: 'block crawlers', description: '', status: 'paused', priority: 0,
    actions: ['hardBlock', 'allow'],
    conditions: {
      operator: '$or',
      children: [
        {
          operator: '$and',
          children: [
            { conditionType: 'userAgent', operator: '$contains', value: 'crawler', caseSensitive: true },
            { conditionType: 'socketIps', operator: '$in', value: ['198.51.100.0/24'] },
            { conditionType: 'header', fieldOption: 'x-client', operator: '$exists' },
            { conditionType: 'path', operator: '$re', value: ['^/api/v[0-9]+'] },
          ],
        },
        { operator: '$or', children: [{ conditionType: 'customParam', fieldOption: 'tier', operator: '$notIn', value: ['gold'] }] },
      ],
    },
  },
  {},
  { status: 'active', unknownTopLevel: { kept: false } },
];

/** POST bodies the emulator accepts (--capabilities create): a whole rule, never its ruleId. */
export const postBodies: unknown[] = patchBodies
  .filter((body): body is Record<string, unknown> => typeof body === 'object' && body !== null && 'conditions' in body)
  .map(({ ruleId: _id, ...rule }) => rule);
