// The project the policy CLI tests share (policies.test.ts, validate-json.test.ts): two rules
// where curl on /health is blocked, the class of /health requests, and a policy file around it.

/** Two rules: hard-block curl, then allow /health (so curl on /health is blocked). */
export const RULES = [
  'rules:',
  '  - name: Block curl',
  '    actions: [hardBlock]',
  '    conditions:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: userAgent, operator: $contains, value: curl }',
  '  - name: Allow health',
  '    actions: [allow]',
  '    conditions:',
  '      operator: $and',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: path, operator: $startsWith, value: /health }',
  '            - { conditionType: socketIps, operator: $in, value: [10.0.0.0/8] }',
  '',
].join('\n');

const CLASS = [
  '    requests:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: path, operator: $startsWith, value: /health }',
];

export function policyFile(level: string, expect: string[] = OUTCOME, classLines: string[] = CLASS): string {
  return ['policies:', '  - name: Health is never blocked', `    level: ${level}`, ...classLines, '    expect:', ...expect, ''].join('\n');
}

export const OUTCOME = ['      outcome: [allow, none]'];
/** The rules with curl blocked only under /api: no request of the class is blocked. */
export const FIXED = RULES.replace('value: curl }', 'value: curl }\n            - { conditionType: path, operator: $startsWith, value: /api/ }');
