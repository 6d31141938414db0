// The emulator's persistent state and its JSON file. Every mutation schedules a save;
// a save writes a temporary file and renames it over the old one, so a crash or a signal
// never leaves a half-written state file. `flush()` (called by stop) writes any pending save.
import { mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../io/atomic-write.js';
import path from 'node:path';
import { UserError } from '../errors.js';
import type { Rule } from '../semantics/model.js';
import type { ScriptRecord } from '../scripts/model.js';
import { parseJsonOr } from '../io/json-depth.js';

export const STATE_VERSION = 1;

/** A rule as the emulator stores it: the wire's customRule without `priority` (= index). */
export type StoredRule = Rule & { ruleId: string };

/**
 * A rule as the emulator lists it: the service's view, never the tool's normal form (a
 * LiveRule is made only by the tool's normaliser, from what it reads over the wire).
 */
export type ListedRule = StoredRule & { priority: number };

export interface StoredApp {
  /**
   * The application's server token. Only tokens the emulator invented are written to the
   * file (mode 0600); a token it was given is stored as "" and must be given again.
   */
  token: string;
  /** In priority order: index 0 is the highest priority. */
  rules: StoredRule[];
}

export interface EmulatorState {
  version: number;
  apps: Record<string, StoredApp>;
  apiToken: string;
  scripts: ScriptRecord[];
}

/** Reads a state file; undefined when there is none. A damaged file is a UserError. */
export async function readState(file: string): Promise<EmulatorState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`cannot read the emulator state file ${file}: ${(err as Error).message}`);
  }
  const fresh = ['Delete it (or use --reset) to start from fresh seed data.'];
  const value = parseJsonOr(text, () => {
    throw new UserError(`the emulator state file ${file} is not valid JSON`, fresh);
  });
  if (!isState(value)) throw new UserError(`the emulator state file ${file} does not hold emulator state version ${STATE_VERSION}`, fresh);
  return value;
}

function isState(value: unknown): value is EmulatorState {
  const v = value as Partial<EmulatorState> | null;
  return v?.version === STATE_VERSION && typeof v.apiToken === 'string' && Array.isArray(v.scripts) && typeof v.apps === 'object' &&
    v.apps !== null && Object.values(v.apps).every((app) => typeof app?.token === 'string' && Array.isArray(app.rules));
}

/** Holds the live state and keeps its file up to date. */
export class StateStore {
  private pending: Promise<void> | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    readonly state: EmulatorState,
    /** Tokens from flags or the environment: the user's secrets stay out of the file. */
    private readonly givenTokens: readonly string[] = [],
    private readonly debounceMs = 20,
  ) {}

  /** Call after every mutation: a save follows shortly (several mutations share one write). */
  changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // A failed write leaves the state dirty: the next change or flush() retries and
      // flush() reports the error.
      this.save().catch(() => undefined);
    }, this.debounceMs);
  }

  /** Writes now if anything changed since the last write; resolves when it is on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.pending;
    if (this.dirty) await this.save();
  }

  /** Writes the state unconditionally (used at start-up, so the file always exists). */
  async save(): Promise<void> {
    // Saves run one after another so an older snapshot can never overwrite a newer one.
    const run = (this.pending ?? Promise.resolve()).then(() => this.write());
    this.pending = run.catch(() => undefined);
    await run;
  }

  private withoutGivenTokens(key: string, value: unknown): unknown {
    const isToken = key === 'token' || key === 'apiToken';
    return isToken && typeof value === 'string' && this.givenTokens.includes(value) ? '' : value;
  }

  private async write(): Promise<void> {
    this.dirty = false;
    try {
      const text = `${JSON.stringify(this.state, (key, value: unknown) => this.withoutGivenTokens(key, value), 2)}\n`;
      await mkdir(path.dirname(this.file), { recursive: true });
      await writeFileAtomic(this.file, text, 'the emulator state', this.file, 0o600);
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }
}
