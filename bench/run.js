// `npm run bench`: runs every bench/*.bench.js in turn (against the built CLI in dist/),
// each printing its own Markdown table. Benchmarks are whole programs, never timed unit tests.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n## ${file}\n\n`);
  const result = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed += 1;
    process.stdout.write(`\n${file} failed with exit code ${result.status}\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
