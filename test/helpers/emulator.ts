// Starts an emulator for one test: its own temp directory (state, certificate), a free
// port, distinctive tokens (so tests can prove they never reach any output), and the
// environment a `runCli(argv, { env })` call needs to talk to it over verified HTTPS.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCertificate, isUsablePair, type CertificatePair } from '../../src/emulator/certificate.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export interface TestEmulator {
  emulator: RunningEmulator;
  /** BOTRULES_CONSOLE_URL, BOTRULES_GATEWAY_URL, BOTRULES_TOKEN, BOTRULES_API_TOKEN, NODE_EXTRA_CA_CERTS. */
  env: Record<string, string>;
  /** The temp directory holding state.json and the certificate files. */
  dir: string;
  /** Stops the emulator and removes its directory. */
  close(): Promise<void>;
}

/** A token no real output would contain by chance. */
export function distinctiveToken(label: string): string {
  return `tok-${label}-${randomBytes(9).toString('hex')}-SECRET`;
}

export async function startTestEmulator(options: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const dir = await mkdtemp(path.join(tmpdir(), 'botrules-test-emulator-'));
  const apps = options.apps ?? [{ name: 'default', token: distinctiveToken('app') }];
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({
      port: 0,
      statePath: path.join(dir, 'state.json'),
      certificate: await sharedCertificate(),
      apiToken: distinctiveToken('api'),
      ...options,
      apps,
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const env = {
    BOTRULES_CONSOLE_URL: emulator.consoleUrl,
    BOTRULES_GATEWAY_URL: emulator.gatewayUrl,
    BOTRULES_TOKEN: apps[0]?.token ?? '',
    BOTRULES_API_TOKEN: emulator.tokens.api,
    NODE_EXTRA_CA_CERTS: emulator.caPath,
  };
  return {
    emulator,
    env,
    dir,
    async close() {
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let certificate: Promise<CertificatePair> | undefined;

/**
 * One certificate for every emulator of the test run: generated once, kept in the temp
 * directory for the other test files (each runs in its own module registry).
 */
export function sharedCertificate(): Promise<CertificatePair> {
  certificate ??= loadOrCreateCertificate();
  return certificate;
}

async function loadOrCreateCertificate(): Promise<CertificatePair> {
  // Beside the run's scratch directory (test/helpers/global-setup.js), which must end empty.
  const file = path.join(process.env.BOTRULES_TEST_RUN_DIR ?? tmpdir(), `botrules-test-emulator-cert-${process.getuid?.() ?? 'user'}.json`);
  try {
    const cached = JSON.parse(await readFile(file, 'utf8')) as CertificatePair;
    if (isUsablePair(cached)) return cached;
  } catch {
    // No usable cached certificate: make one below.
  }
  const pair = await generateCertificate();
  // Written under a unique name and renamed, so parallel test workers never read half a file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, JSON.stringify(pair), { mode: 0o600 });
  await rename(temp, file);
  return pair;
}
