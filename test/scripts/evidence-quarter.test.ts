import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { runCli } from '../helpers/cli.js';
import { simulateQuarter, type Quarter } from './evidence-series.js';

let quarter: Quarter;
beforeAll(async () => {
  quarter = await simulateQuarter();
}, 120_000);
afterAll(async () => {
  await quarter.close();
});

it('debug', async () => {
  const e = await runCli(['scripts', 'evidence', 'series', '--from', '2026-01-05', '--to', '2026-04-05', '--out', 'pack.html'], { cwd: quarter.cwd, now: () => Date.parse('2026-04-06T08:00:00Z') });
  const text = await readFile(join(quarter.cwd, 'pack.html'), 'utf8');
  await writeFile('/tmp/evidence-pack.html', text);
  const report = await new HtmlValidate().validateString(text);
  console.log(JSON.stringify(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`)), null, 1));
});
