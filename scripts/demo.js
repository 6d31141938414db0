// `npm run demo`: the main job of botrules, end to end, against the embedded emulator.
// Starts the emulator on a free port (live rules = the example rules plus generated ones
// nobody manages, then a few "console edits" so there is drift), and runs the commands a
// team runs in CI: validate → plan → apply → plan (clean) → scripts report → scripts diff.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../dist/emulator/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'botrules.js');
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${s}\x1b[22m` : s);

const work = await mkdtemp(path.join(tmpdir(), 'botrules-demo-'));
const emulator = await startEmulator({
  statePath: path.join(work, 'state.json'),
  apps: [{ name: 'default', token: `demo-${randomBytes(12).toString('hex')}` }],
  apiToken: `demo-api-${randomBytes(12).toString('hex')}`,
  seed: path.join(root, 'rules'),
  generateRules: 12,
  generateScripts: 400,
  randomSeed: 7,
});
const env = {
  ...process.env,
  BOTRULES_CONSOLE_URL: emulator.consoleUrl,
  BOTRULES_GATEWAY_URL: emulator.gatewayUrl,
  BOTRULES_TOKEN: emulator.tokens.apps.default,
  BOTRULES_API_TOKEN: emulator.tokens.api,
  NODE_EXTRA_CA_CERTS: emulator.caPath,
};

let failed = false;
try {
  driftLikeAConsoleUser();
  console.log(bold(`Emulator on ${emulator.url}: ${emulator.rules().length} live rules, ${emulator.scripts().length} scripts.`));
  console.log('Someone edited rules in the console: a description, a status and an order changed.\n');

  await step('Validate the rule files', ['validate'], [0]);
  await step('Plan: what would change (exit 2 = changes present)', ['plan', '--detailed-exitcode', '--no-color'], [2]);
  await step('Apply the plan', ['apply', '--auto-approve', '--no-color'], [0]);
  await step('Plan again: the live rules now match the files', ['plan', '--detailed-exitcode', '--no-color'], [0]);

  const scriptArgs = ['--app-id', 'app-demo', '--tld', 'shop.example.com', '--policy', path.join(root, 'scripts-policy.yaml')];
  const lastWeek = path.join(work, 'last-week.json');
  const thisWeek = path.join(work, 'this-week.json');
  await step('Script inventory snapshot of last week', ['scripts', 'report', ...scriptArgs, '--from', '14d', '--to', '7d', '--out', lastWeek], [0]);
  await step('Script inventory snapshot of this week', ['scripts', 'report', ...scriptArgs, '--from', '7d', '--out', thisWeek], [0]);
  await step('This week\'s inventory as Markdown (for $GITHUB_STEP_SUMMARY)', ['scripts', 'report', ...scriptArgs, '--from', '7d', '--format', 'markdown'], [0]);
  await step('What changed since last week (exit 3 = a --fail-on condition matched)', ['scripts', 'diff', lastWeek, thisWeek, '--fail-on', 'new,risk-up'], [0, 3]);
  console.log(bold('\nDemo complete.'));
} catch (err) {
  failed = true;
  console.error(`\nDemo failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

/** Edits three example rules the way a person in the console would, so the plan has work. */
function driftLikeAConsoleUser() {
  const rules = emulator.rules();
  const managed = rules.filter((r) => !r.name.startsWith('Generated rule'));
  const [first, second, third] = managed;
  if (!first || !second || !third) throw new Error('the example rules were not seeded');
  first.description = 'edited in the console';
  second.status = second.status === 'active' ? 'paused' : 'active';
  // Move the third example rule to the end of the list, behind the generated ones.
  const reordered = rules.filter((r) => r.ruleId !== third.ruleId).concat(third);
  emulator.replaceRules(reordered);
}

async function step(title, args, expectedCodes) {
  console.log(bold(`\n=== ${title}\n$ botrules ${args.map(displayArg).join(' ')}`));
  const code = await run(args);
  if (!expectedCodes.includes(code)) throw new Error(`botrules ${args[0]} exited ${code}, expected ${expectedCodes.join(' or ')}`);
  console.log(`(exit ${code})`);
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Shows temp paths as $DEMO/… and project paths relative to the project. */
function displayArg(arg) {
  if (arg.startsWith(work)) return `$DEMO/${path.relative(work, arg)}`;
  if (arg.startsWith(root)) return path.relative(root, arg);
  return arg;
}
