// Shared set-up for the plan/apply/import tests: rules to seed the emulator with, rule files
// written by hand (independently of `import`), temp project directories, and log queries.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { RequestLogEntry, RunningEmulator } from '../../src/emulator/index.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { rule } from '../plan/fixtures.js';

export { conditionsFor, rule } from '../plan/fixtures.js';

/** Rules named A, B, C… (as many as asked). */
export function lettered(count: number): NormalRule[] {
  return Array.from({ length: count }, (_, i) => rule(String.fromCharCode(65 + i)));
}

export interface Project {
  dir: string;
  /** Absolute path of ./rules in the project. */
  rulesDir: string;
  close(): Promise<void>;
}

export async function tempProject(): Promise<Project> {
  const dir = await mkdtemp(path.join(tmpdir(), 'botrules-apply-test-'));
  const rulesDir = path.join(dir, 'rules');
  await mkdir(rulesDir);
  return { dir, rulesDir, close: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes declared rules as one file per rule (`010-x.yaml`, …) so the declared order is the
 * order given. `ruleId` is written only when the rule has one.
 */
export async function writeRules(dir: string, rules: readonly Rule[]): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await Promise.all(
    rules.map((r, i) => writeFile(path.join(dir, `${String((i + 1) * 10).padStart(3, '0')}-rule.yaml`), stringify({ rules: [r] }))),
  );
}

export async function writeConfig(projectDir: string, config: unknown): Promise<void> {
  await writeFile(path.join(projectDir, 'botrules.yaml'), stringify(config));
}

export function patches(emulator: RunningEmulator): RequestLogEntry[] {
  return emulator.log.filter((e) => e.method === 'PATCH');
}

/** The emulator's live rules without ids and priorities, for comparing with declared rules. */
export function liveFields(emulator: RunningEmulator, app?: string): Rule[] {
  return emulator.rules(app).map(({ ruleId: _id, priority: _p, ...fields }) => fields);
}

export function names(rules: readonly { name: string }[]): string[] {
  return rules.map((r) => r.name);
}
