// What the emulator can be told, in-process or through `botrules emulator`.
import type { Rule } from '../semantics/model.js';
import type { ScriptRecord } from '../scripts/model.js';
import type { CertificatePair } from './certificate.js';

/** How the emulator moves a rule whose priority a PATCH changes: list-move as the service does (docs/design.md, "List-move semantics and minimal moves"), or a swap, to test the verify-and-correct pass. */
export type MoveSemantics = 'list-move' | 'swap';
export const MOVE_SEMANTICS: readonly MoveSemantics[] = ['list-move', 'swap'];

/** What `--capabilities` switches on beside list and PATCH (a small module: the CLI reads it at start-up). */
export type Capability = 'create' | 'delete';
export const CAPABILITIES: readonly Capability[] = ['create', 'delete'];

export interface EmulatorApp {
  name: string;
  token: string;
  /** Initial rules of this app (only used when there is no state file yet). */
  rules?: Rule[];
}

export interface EmulatorOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** State file; the certificate files are written next to it. Default: a new temp directory. */
  statePath?: string;
  /** Ignore an existing state file and seed afresh. */
  reset?: boolean;
  /** Use this certificate instead of the one next to the state file (tests share one). */
  certificate?: CertificatePair;
  /**
   * The apps and their server tokens. Default: one app `default` whose token is
   * BOTRULES_TOKEN from `env`, else the one in the state file, else a random one.
   */
  apps?: EmulatorApp[];
  /** Token for the script inventory. Default: BOTRULES_API_TOKEN, else BOTRULES_TOKEN, else stored, else random. */
  apiToken?: string;
  /** Environment to take default tokens from. Only this is read, never process.env. */
  env?: Record<string, string | undefined>;
  /** Rule directory to seed the first app from (loaded like `botrules validate` loads it). */
  seed?: string;
  /** Directory that `seed` and problem paths are relative to. Default: the process's cwd. */
  cwd?: string;
  /** Rules to seed the first app with (after the `seed` directory's). */
  seedRules?: Rule[];
  /** Generated rules appended after the seeded ones. */
  generateRules?: number;
  seedScripts?: ScriptRecord[];
  generateScripts?: number;
  /** App ids and host domains of generated scripts. Default: app-demo / shop.example.com. */
  scriptAppIds?: string[];
  scriptTlds?: string[];
  /** Seed of the generator behind generated data, ids and fault rates. Default 1. */
  randomSeed?: number;
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number;
  /** Fault specs (see faults.ts). */
  faults?: string[];
  /** Append one JSON line per request to this file. */
  logFile?: string;
  /** Largest `take` honoured on the script inventory. Default 100. */
  maxTake?: number;
  moveSemantics?: MoveSemantics;
  /** POST (create) and DELETE (delete) on the rule API; without them both answer 405. */
  capabilities?: Capability[];
  /** Clock, for generated timestamps and the script query's default window. */
  now?: () => number;
}

export const DEFAULT_SCRIPT_APP_ID = 'app-demo';
export const DEFAULT_SCRIPT_TLD = 'shop.example.com';
export const DEFAULT_MAX_TAKE = 100;
