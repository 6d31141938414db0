// The example project's policies through the real binary (README, "policies: what must hold
// for every request"): they hold for the example rules; a planted rule that hard-blocks the
// cloud networks first violates them, each at the policy's line with the planted rule's place;
// moving it after the allow rules (the fix the README gives) restores them.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBinary } from '../helpers/binary.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { exampleProject, PLANTED } from './example-project.js';

it('the example policies hold, a planted rule violates them, and the fix restores them', async () => {
  const dir = exampleProject('botrules-policies-');
  const holding = await runBinary(dir, 'validate');
  const coverage = matrixCoverageLine('rules/10-allow-monitoring.yaml:5:5', 'socketIps, path, header, socketIpASN, httpMethod, country', 18, 'Allow uptime monitors');
  expect(holding).toEqual({ code: 0, stdout: '4 files, 8 rules: valid; 3 policy checks: 3 hold\n', stderr: `${coverage}\n` });

  writeFileSync(path.join(dir, 'rules', '05-block-cloud.yaml'), PLANTED);
  const violated = await runBinary(dir, 'validate');
  expect(violated.code).toBe(1);
  const lines = violated.stderr.split('\n').filter((line) => line.includes('Policy violated'));
  expect(lines.map((line) => line.slice(0, line.indexOf(': Policy violated')))).toEqual(['policies/trusted-traffic.yaml:5:5', 'policies/trusted-traffic.yaml:18:5', 'policies/trusted-traffic.yaml:31:5']);
  expect(lines[2]).toBe(
    'policies/trusted-traffic.yaml:31:5: Policy violated: "Verified Googlebot is never blocked" for app default: for example the request path "/", method "GET", userAgent "Googlebot", asn "15169" ' +
    'gets block from rule "Block cloud networks" (rules/05-block-cloud.yaml:2:5) through conditions.children[0].children[0] (client ASN one of "15169", "16509"); the policy allows allow [policy]',
  );

  renameSync(path.join(dir, 'rules', '05-block-cloud.yaml'), path.join(dir, 'rules', '25-block-cloud.yaml'));
  const fixed = await runBinary(dir, 'validate');
  expect(fixed.code).toBe(0);
  expect(fixed.stdout).toBe('5 files, 9 rules: valid; 3 policy checks: 3 hold\n');
});
