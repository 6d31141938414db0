// The embedded emulator of the service: `startEmulator(options)` starts one HTTPS server on
// 127.0.0.1 that serves both the management host's rule paths and the gateway's script
// inventory, backed by a JSON state file. Used by tests in-process and by `botrules emulator`.
import { mkdir, mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UserError } from '../errors.js';
import { DEFAULT_APP } from '../rules/written-config.js';
import type { Rule } from '../semantics/model.js';
import type { ScriptRecord } from '../scripts/model.js';
import { ensureCertificate } from './certificate.js';
import { FaultSet, type FaultSpec } from './faults.js';
import { RequestLog, type RequestLogEntry } from './log.js';
import { DEFAULT_MAX_TAKE, type EmulatorOptions, type MoveSemantics } from './options.js';
import { seededRandom, randomUuid } from './random.js';
import { liveRule } from './rules-api.js';
import { initialState, type GeneratedTokens } from './seed.js';
import { createEmulatorServer, type ServerSettings } from './server.js';
import { StateStore, readState, type ListedRule, type StoredApp } from './state.js';

export type { EmulatorApp, EmulatorOptions } from './options.js';
export type { RequestLogEntry } from './log.js';
export { parseFault } from './faults.js';
export { writeTraffic } from './generate-traffic.js';

export interface RunningEmulator {
  /** https://127.0.0.1:PORT */
  url: string;
  port: number;
  /** What BOTRULES_CONSOLE_URL should hold: https://127.0.0.1:PORT/api */
  consoleUrl: string;
  /** What BOTRULES_GATEWAY_URL should hold: https://127.0.0.1:PORT */
  gatewayUrl: string;
  /** The certificate to trust (NODE_EXTRA_CA_CERTS, curl --cacert). */
  caPath: string;
  statePath: string;
  /** True when the state came from an existing state file (seed options were not used). */
  resumed: boolean;
  tokens: { apps: Record<string, string>; api: string };
  /** Which tokens the emulator invented rather than was given. */
  generatedTokens: GeneratedTokens;
  /** Every request answered so far (most recent 10 000), oldest first. */
  log: RequestLogEntry[];
  /** A copy of the app's live rules in priority order. */
  rules(app?: string): ListedRule[];
  /** Replaces the app's rules (as if edited in the console); rules without ruleId get one. */
  replaceRules(rules: Rule[], app?: string): ListedRule[];
  /** A copy of the script inventory. */
  scripts(): ScriptRecord[];
  /** Replaces the script inventory (scripts appear, disappear or change while a client pages). */
  replaceScripts(records: ScriptRecord[]): void;
  setMoveSemantics(semantics: MoveSemantics): void;
  setLatency(ms: number): void;
  addFault(spec: string): FaultSpec;
  clearFaults(): void;
  /** Closes the server (and its open connections), writes the state and closes the log. */
  stop(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = settingsOf(options);
  const seed = options.randomSeed ?? 1;
  const random = seededRandom(seed);
  // Fault rates draw from their own sequence, so adding a fault never changes generated data.
  const faults = new FaultSet(seededRandom((seed ^ 0x5bd1e995) >>> 0));
  for (const spec of options.faults ?? []) faults.add(spec);
  const statePath = await resolveStatePath(options);
  const stored = options.reset ? undefined : await readState(statePath);
  const { state, generated, givenTokens } = await initialState(options, stored, random);
  const store = new StateStore(statePath, state, givenTokens);
  await store.save();
  const tls = await ensureCertificate(path.dirname(statePath), options.certificate);
  const log = await RequestLog.open(options.logFile && path.resolve(options.cwd ?? process.cwd(), options.logFile));
  const now = options.now ?? Date.now;
  let url = '';
  const server = createEmulatorServer(tls, { store, faults, log, settings, now, gatewayUrl: () => url });
  const port = await listen(server, options.port ?? 0).catch(async (err: unknown) => {
    await log.close();
    throw err;
  });
  url = `https://127.0.0.1:${port}`;

  const appOf = (name: string): StoredApp => {
    const app = state.apps[name];
    if (!app) throw new Error(`the emulator has no app named ${name}`);
    return app;
  };
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    consoleUrl: `${url}/api`,
    gatewayUrl: url,
    caPath: tls.caPath,
    statePath,
    resumed: stored !== undefined,
    tokens: { apps: Object.fromEntries(Object.entries(state.apps).map(([name, app]) => [name, app.token])), api: state.apiToken },
    generatedTokens: generated,
    log: log.entries,
    rules: (app = DEFAULT_APP) => appOf(app).rules.map(liveRule),
    replaceRules(rules, app = DEFAULT_APP) {
      appOf(app).rules = rules.map((rule) => ({ ...structuredClone(rule), ruleId: rule.ruleId ?? randomUuid(random) }));
      store.changed();
      return appOf(app).rules.map(liveRule);
    },
    scripts: () => structuredClone(state.scripts),
    replaceScripts(records) {
      // A new array, never an in-place edit: the query cache is keyed by the array.
      state.scripts = structuredClone(records);
      store.changed();
    },
    setMoveSemantics: (semantics) => {
      settings.moveSemantics = semantics;
    },
    setLatency: (ms) => {
      settings.latencyMs = ms;
    },
    addFault: (spec) => faults.add(spec),
    clearFaults: () => faults.clear(),
    stop() {
      stopped ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await store.flush();
        await log.close();
      })();
      return stopped;
    },
  };
}

/**
 * The settings a running emulator can change. The options are checked where a person types them,
 * by the command's option readers (src/cli/commands/emulator.ts); in-process callers pass typed values.
 */
function settingsOf(options: EmulatorOptions): ServerSettings {
  return {
    latencyMs: options.latencyMs ?? 0,
    moveSemantics: options.moveSemantics ?? 'list-move',
    maxTake: options.maxTake ?? DEFAULT_MAX_TAKE,
    capabilities: new Set(options.capabilities),
  };
}

async function resolveStatePath(options: EmulatorOptions): Promise<string> {
  if (options.statePath === undefined) {
    const dir = await mkdtemp(path.join(tmpdir(), 'botrules-emulator-'));
    return path.join(dir, 'state.json');
  }
  const file = path.resolve(options.cwd ?? process.cwd(), options.statePath);
  await mkdir(path.dirname(file), { recursive: true });
  return file;
}

function listen(server: ReturnType<typeof createEmulatorServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new UserError(`port ${port} on 127.0.0.1 is already in use: choose another with --port`) : err);
    });
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
