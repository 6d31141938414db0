// `npm run demo`: the main job of botrules, end to end, against the embedded emulator.
// Starts the emulator on a free port (live rules = the example rules plus a few generated ones
// nobody manages, then three "console edits" so there is drift) and runs what a team runs in CI:
// validate → plan → apply (keeping the undo plan) → plan (clean), then adding a rule (blocked →
// created paused in the emulator's console → ruleId pinned → applied). Then, briefly, the script
// inventory: two weekly snapshots and what changed between them, as a summary. The files it
// writes are kept, in a directory it names at the end; only the emulator's own state goes.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, writeTraffic } from '../dist/emulator/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'botrules.js');
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${s}\x1b[22m` : s);

// BOTRULES_DEMO_DIR: where to keep what the demo writes (by default a new temporary directory).
const kept = process.env.BOTRULES_DEMO_DIR ? path.resolve(process.env.BOTRULES_DEMO_DIR) : await mkdtemp(path.join(tmpdir(), 'botrules-demo-'));
await mkdir(kept, { recursive: true });
const emulatorState = await mkdtemp(path.join(tmpdir(), 'botrules-demo-emulator-'));
const emulator = await startEmulator({
  statePath: path.join(emulatorState, 'state.json'),
  apps: [{ name: 'default', token: `demo-${randomBytes(12).toString('hex')}` }],
  apiToken: `demo-api-${randomBytes(12).toString('hex')}`,
  seed: path.join(root, 'rules'),
  generateRules: 3,
  generateScripts: 120,
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
const files = { traffic: path.join(kept, 'traffic.ndjson'), undo: path.join(kept, 'undo-plan.json'), lastWeek: path.join(kept, 'scripts-last-week.json'), thisWeek: path.join(kept, 'scripts-this-week.json') };

let failed = false;
try {
  driftLikeAConsoleUser();
  console.log(bold(`Emulator on ${emulator.url}: ${emulator.rules().length} live rules, ${emulator.scripts().length} scripts.`));
  console.log('Someone edited rules in the console: a description, a status and an order changed.');

  await step('Validate the rule files', ['validate'], [0]);
  await step('Plan: what would change (exit 2 = changes present)', ['plan', '--detailed-exitcode', '--no-color'], [2], { show: shortPlan() });
  // Apply prints the plan again before its steps: only what it did is shown here.
  await step('Apply the plan, keeping the plan that undoes it', ['apply', '--auto-approve', '--undo-out', files.undo, '--no-color'], [0], { show: (line) => /^(✓|Verified|Apply complete)/.test(line) });
  await step('Plan again: the live rules now match the files', ['plan', '--detailed-exitcode', '--no-color'], [0], { show: (line) => line.startsWith('No changes') });
  await addARule();

  const scriptArgs = ['--app-id', 'app-demo', '--tld', 'shop.example.com', '--policy', path.join(root, 'scripts-policy.yaml')];
  // The chain head each report prints is for CI to record elsewhere (scripts verify --anchor): the demo keeps no such record.
  const withoutChainHead = { showErr: (line) => line !== '' && !line.startsWith('Chain head: ') };
  await step('Script inventory: last week and this week as JSON snapshots (audit evidence)', ['scripts', 'report', ...scriptArgs, '--from', '14d', '--to', '7d', '--out', files.lastWeek], [0], withoutChainHead);
  await step('', ['scripts', 'report', ...scriptArgs, '--from', '7d', '--out', files.thisWeek], [0], withoutChainHead);
  const diff = await step('What changed since last week, in short (exit 3 would say a --fail-on condition matched)', ['scripts', 'diff', files.lastWeek, files.thisWeek, '--format', 'json', '--fail-on', 'risk-up'], [0, 3], { capture: true });
  summariseDiff(JSON.parse(diff.stdout));

  console.log(bold(`\nDemo complete. Kept in ${kept}:`));
  console.log(`  ${Object.values(files).map((file) => path.relative(kept, file)).join(', ')} (delete the directory when you are done with them)`);
} catch (err) {
  failed = true;
  console.error(`\nDemo failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await emulator.stop();
  await rm(emulatorState, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

/** Edits three example rules the way a person in the console would, so the plan has work. */
function driftLikeAConsoleUser() {
  const rules = emulator.rules();
  // The generated rules nobody manages are old experiments, left paused (a random one may be a catch-all).
  for (const rule of rules) if (rule.name.startsWith('Generated rule')) rule.status = 'paused';
  const managed = rules.filter((r) => !r.name.startsWith('Generated rule'));
  const [first, second, third] = managed;
  if (!first || !second || !third) throw new Error('the example rules were not seeded');
  first.description = 'edited in the console';
  second.status = second.status === 'active' ? 'paused' : 'active';
  // Move the third example rule to the end of the list, behind the generated ones.
  emulator.replaceRules(rules.filter((r) => r.ruleId !== third.ruleId).concat(third));
}

/**
 * The add-a-rule story, on a copy of the rule files: the API cannot create rules, so the plan
 * is blocked and says what to do in the console; the emulator's console does it (paused, at
 * the position given); import --update --pin writes its ruleId; plan --replay shows what
 * activating it does to a synthetic day of traffic; apply sets the rest.
 */
async function addARule() {
  const dir = path.join(kept, 'rules');
  await cp(path.join(root, 'rules'), dir, { recursive: true });
  const rule = ['rules:', '  - name: Block scrapers', '    actions: [hardBlock]', '    conditions:', '      operator: $or', '      children:',
    '        - operator: $and', '          children:', '            - { conditionType: userAgent, operator: $contains, value: curl/ }'];
  await writeFile(path.join(dir, '50-block-scrapers.yaml'), `${rule.join('\n')}\n`);
  const about = (line) => line.includes('"Block scrapers"') || /^ {6}\d\. |^Verified/.test(line);
  // stderr repeats the console steps in one sentence: its first line says why the exit is 1.
  const blocked = await step('Add a rule: declared in a new file, it is blocked until it exists live (exit 1)', ['plan', '--dir', dir, '--no-color'], [1], { show: about, showErr: (line) => line.startsWith('error: ') });
  // Where the plan says to create it.
  const position = /at position (\d+)/.exec(blocked.stdout)?.[1] ?? '1';
  await step('', ['emulator', 'console', 'create', 'Block scrapers', '--paused', '--position', position], [0]);
  await step('', ['import', '--update', '--pin', '--dir', dir], [0], { show: about });
  // What activating it does to traffic, before it does it: a synthetic day of the site's visitors.
  await writeTraffic(files.traffic, 20_000, 7);
  const replayed = (line) => /^(Replayed|No outcome changes| {4}(no rule|allow|challenge|block|undecided) → | {8}\d+×)/.test(line);
  const replay = await step('Replay a day of synthetic traffic (botrules emulator --write-traffic) against the plan: who would be blocked', ['plan', '--dir', dir, '--replay', files.traffic, '--no-color'], [0], { show: replayed, showErr: (line) => line.startsWith('warning: ') });
  // Above maxNewlyBlocked apply refuses the plan without --force: the requests it would block
  // here are the curl/ scrapers the rule is for, so the demo accepts them, as a reviewer would.
  const newlyBlocked = /(\d+) of the \d+ replayed requests/.exec(replay.stderr)?.[1] ?? 'the';
  console.log(`The ${newlyBlocked} newly blocked requests are the curl/ scrapers this rule is for: apply with the same traffic, and --force to accept them.`);
  await step('', ['apply', '--auto-approve', '--dir', dir, '--replay', files.traffic, '--force', '--no-color'], [0], { show: about });
}

/**
 * The first plan, shorter than `botrules plan` prints it: each class of requests decided
 * differently by its headline only (not its requests and example), without the note on
 * console positions and the summary repeated at the end (both are for long plans), and without
 * the policies' count when every policy holds and what operator-matrix did not check (validate
 * has just said both).
 */
function shortPlan() {
  let summaries = 0;
  return (line) => {
    if (line.startsWith('Plan: ') && ++summaries > 1) return false;
    // validate said just above that every policy holds.
    if (/^Policies: \d+ checks?, \d+ hold, 0 violated, 0 unchecked$/.test(line)) return false;
    if (/: info: operator-matrix: .*\[operator-matrix\]$/.test(line)) return false;
    return !/^ {6}requests /.test(line) && !line.startsWith('Positions are console positions');
  };
}

/** One line from `scripts diff --format json`: its counts (the snapshots kept hold every script). */
function summariseDiff(report) {
  const { added, removed, changed, unchanged } = report.summary;
  const highRisk = report.added.filter((script) => script.risk?.level === 'high').length;
  console.log(`${added} new (${highRisk} of them high risk), ${removed} gone, ${changed} changed, ${unchanged} unchanged scripts.`);
}

/**
 * Runs one command and checks its exit code; a step without a title continues the one before.
 * `show`: print only the output lines it accepts (the rest was shown by an earlier step).
 */
async function step(title, args, expectedCodes, options = {}) {
  console.log(bold(`${title === '' ? '' : `\n=== ${title}\n`}$ botrules ${args.map(displayArg).join(' ')}`));
  const result = await run(args, { capture: options.capture === true || options.show !== undefined, captureErr: options.showErr !== undefined });
  if (options.showErr !== undefined) for (const line of result.stderr.split('\n').filter(options.showErr)) console.log(line);
  if (options.show !== undefined) for (const line of withoutBlankRuns(result.stdout.split('\n').filter(options.show))) console.log(line);
  if (!expectedCodes.includes(result.code)) {
    if (options.showErr !== undefined) process.stderr.write(result.stderr);
    throw new Error(`botrules ${args[0]} exited ${result.code}, expected ${expectedCodes.join(' or ')}`);
  }
  // An exit code is news when it is not 0 or when it carries meaning (--detailed-exitcode, --fail-on).
  if (result.code !== 0 || expectedCodes.length > 1 || args.includes('--detailed-exitcode')) console.log(`(exit ${result.code})`);
  return result;
}

/** Lines with no blank line first, last or after another (what a filter leaves of paragraphs). */
function withoutBlankRuns(lines) {
  const kept = lines.filter((line, index) => line !== '' || (index > 0 && lines[index - 1] !== ''));
  while (kept.at(-1) === '') kept.pop();
  while (kept[0] === '') kept.shift();
  return kept;
}

/** Runs the CLI; its output goes to the terminal, or is captured with `capture` (stdout) and `captureErr`. */
function run(args, { capture = false, captureErr = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['ignore', capture ? 'pipe' : 'inherit', captureErr ? 'pipe' : 'inherit'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/**
 * An argument as it can be pasted into a POSIX shell: kept paths as $DEMO/…, project paths
 * relative to the project, anything else single-quoted unless it is plainly one word.
 */
function displayArg(arg) {
  if (arg.startsWith(kept)) return `"$DEMO"/${shellQuoted(path.relative(kept, arg))}`;
  if (arg.startsWith(root)) return shellQuoted(path.relative(root, arg));
  return shellQuoted(arg);
}

function shellQuoted(word) {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}
