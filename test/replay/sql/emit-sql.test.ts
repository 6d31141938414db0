// `replay --emit-sql`: one query per dialect over a table of request fields. Trino's and
// BigQuery's are parsed by node-sql-parser for that dialect (Athena's parser for Trino's too);
// what a dialect cannot decide exactly (a lookahead pattern, RE2 itself in Trino) is named at
// the top, and the query still returns its rows as undecided. ClickHouse has no parser in
// node-sql-parser: quoting.test.ts reads its queries with ClickHouse's lexical rules.
import nodeSqlParser from 'node-sql-parser';
import type { LiveRule, Rule } from '../../../src/semantics/model.js';
import { botrules, replayProject } from '../fixtures.js';
import { live } from '../../helpers/rules.js';

const RULES: Rule[] = [
  { name: 'Lookahead bots', description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: ['^(?=.*bot)'] }] }] } },
  { name: "Office's range", description: '', status: 'active', actions: ['allow'], conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'socketIps', operator: '$in', value: ['10.0.0.0/8', '2001:db8::/32'] }] }] } },
  { name: 'Scrapers', description: '', status: 'active', actions: ['blockWithChallenge'], conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: ['[Ss]crapy'] }, { conditionType: 'header', fieldOption: 'X-Forwarded-For', operator: '$exists' }] }] } },
];
// Live: the scrapers rule paused (the plan activates it), so both sets hold every rule.
const LIVE: LiveRule[] = RULES.map((rule, priority) => live({ ...rule, ruleId: `r-${priority}`, status: priority === 2 ? 'paused' : 'active' }, priority));
const DECLARED: Rule[] = RULES.map((rule, priority) => ({ ...rule, ruleId: `r-${priority}` }));

async function emitted(dialect: string, table = 'requests'): Promise<string> {
  const result = await botrules(replayProject(DECLARED, LIVE), 'replay', '--live', 'live.json', '--emit-sql', '--dialect', dialect, '--table', table);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

const parser = new nodeSqlParser.Parser();

it.each([['trino', 'trino'], ['trino', 'athena'], ['bigquery', 'bigquery']])('emits a %s query that the %s parser reads', async (dialect, database) => {
  const sql = await emitted(dialect, 'logs.requests');
  expect(() => parser.astify(sql, { database })).not.toThrow();
  expect(sql).toContain('live_rule');
  expect(sql).toContain('declared_outcome');
});

it('names at the top what the dialect leaves undecided', async () => {
  const trino = await emitted('trino');
  const header = trino.split('\n').filter((line) => line.startsWith('--')).join('\n');
  expect(header).toContain('$re "^(?=.*bot)": outside the RE2 subset');
  expect(header).toContain('$re "[Ss]crapy": trino does not run RE2');
  // Address ranges are integer and hex-digit comparisons in every dialect: nothing to name.
  expect(header).not.toContain('address');
  expect(trino).toContain("botrules_ipv6 BETWEEN '20010db8000000000000000000000000' AND '20010db8ffffffffffffffffffffffff'");
  expect(trino).toContain('botrules_ipv4 BETWEEN 167772160 AND 184549375');
  const bigquery = await emitted('bigquery');
  expect(bigquery).toContain("REGEXP_CONTAINS(`userAgent`, '");
  expect(bigquery).not.toContain('[Ss]crapy": bigquery does not run RE2');
  expect(bigquery).toContain("JSON_VALUE(`headers`['x-forwarded-for'])");
});

it('reads ClickHouse map columns only under mapContains (a Map answers an empty string for an absent name)', async () => {
  const sql = await emitted('clickhouse');
  expect(sql).toContain("if(mapContains(\"headers\", 'x-forwarded-for'), \"headers\"['x-forwarded-for'], NULL)");
  expect(sql).toContain("match(\"userAgent\", '");
});

it('refuses logs beside --emit-sql', async () => {
  const result = await botrules(replayProject(DECLARED, LIVE), 'replay', '--live', 'live.json', '--emit-sql', 'access.log');
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('--emit-sql prints a query and reads no log');
});
