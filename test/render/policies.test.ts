// The policy block before a Markdown plan (src/render/policies/index.ts): one alert per
// violation, capped so that the plan after it stays within a pull-request comment.
import { MARKDOWN_POLICY_CAP, POLICIES_BEFORE_PLAN, type PolicyFinding } from '../../src/render/policies/index.js';

function finding(index: number, level: PolicyFinding['level'] = 'error'): PolicyFinding {
  return {
    policy: `P${index}`, builtin: false, level, app: 'default', at: { file: 'policies/p.yaml', line: index + 2, col: 5 }, verdict: 'violated',
    grounds: { kind: 'worded', text: `Policy violated: "P${index}" for app default: for example the request path "/<b>"` }, live: 'holds',
  };
}

async function markdownOf(findings: PolicyFinding[]): Promise<string> {
  let text = '';
  await POLICIES_BEFORE_PLAN.markdown.stdout(findings, { write: (chunk: string) => (text += chunk) });
  return text;
}

it('puts each violation first as an alert by its level, escaped, and says whether the plan breaks it', async () => {
  const text = await markdownOf([finding(1), finding(2, 'warning')]);
  expect(text.split('\n').slice(0, 6)).toEqual([
    '> [!CAUTION]',
    '> Policy violated: &quot;P1&quot; for app default: for example the request path &quot;/&lt;b&gt;&quot; (the live rules hold it: this plan breaks it) (`policies/p.yaml:3`)',
    '',
    '> [!WARNING]',
    '> Policy violated: &quot;P2&quot; for app default: for example the request path &quot;/&lt;b&gt;&quot; (the live rules hold it: this plan breaks it) (`policies/p.yaml:4`)',
    '',
  ]);
});

it(`shows at most ${MARKDOWN_POLICY_CAP} alerts and says how many more there are`, async () => {
  const text = await markdownOf(Array.from({ length: MARKDOWN_POLICY_CAP + 5 }, (_, i) => finding(i)));
  expect(text.split('\n').filter((line) => line === '> [!CAUTION]')).toHaveLength(MARKDOWN_POLICY_CAP);
  expect(text).toContain('5 more policies are not proved to hold: botrules plan --format json lists them all.');
});
