// Clients built from the environment: what is checked before any connection is made.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rulesClientFor, scriptsClientFor } from '../../src/api/index.js';
import { UserError } from '../../src/errors.js';
import type { AppConfig } from '../../src/rules/config.js';
import { capturedContext, everyRendering, SENTINEL_TOKEN, startConnectionCounter, thrownBy } from './support.js';
import { tempDir } from '../helpers/temp.js';

const app: AppConfig = { name: 'default', rulesDir: '/rules', tokenEnv: 'BOTRULES_TOKEN', unmanaged: 'keep' };
const shop: AppConfig = { name: 'shop', rulesDir: '/shop', tokenEnv: 'BOTRULES_SHOP_TOKEN', unmanaged: 'keep' };

function rulesError(env: Record<string, string>, target: AppConfig = app): Promise<Error> {
  return thrownBy(() => rulesClientFor(target, capturedContext(env).ctx).listRules());
}

function scriptsError(env: Record<string, string>): Promise<Error> {
  const query = { appId: ['a'], tld: ['example.com'], from: 0, to: 1, skip: 0, take: 20 };
  return thrownBy(() => scriptsClientFor(capturedContext(env).ctx).listScripts(query));
}

describe('missing settings', () => {
  it('names the missing URL variable', async () => {
    const error = await rulesError({ BOTRULES_TOKEN: SENTINEL_TOKEN });
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(/^BOTRULES_CONSOLE_URL is not set: .*ending in \/api/);
    expect((await scriptsError({ BOTRULES_API_TOKEN: 't' })).message).toMatch(/^BOTRULES_GATEWAY_URL is not set/);
  });

  it('names the app\'s token variable, an empty value counting as unset', async () => {
    const error = await rulesError({ BOTRULES_CONSOLE_URL: 'https://console.example.com/api', BOTRULES_SHOP_TOKEN: '' }, shop);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe('BOTRULES_SHOP_TOKEN is not set: it must hold the server token of app shop');
  });

  it('names both script token variables when neither is set', async () => {
    const error = await scriptsError({ BOTRULES_GATEWAY_URL: 'https://gateway.example.com', BOTRULES_API_TOKEN: '' });
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(/^BOTRULES_API_TOKEN is not set \(nor BOTRULES_TOKEN, its fallback\)/);
  });

  it('refuses a URL that does not parse', async () => {
    const error = await rulesError({ BOTRULES_CONSOLE_URL: 'console.example.com/api', BOTRULES_TOKEN: SENTINEL_TOKEN });
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe('BOTRULES_CONSOLE_URL is not a valid URL (23 characters, not shown)');
  });
});

describe('plain HTTP', () => {
  it('is refused with an explanation before any connection is made', async () => {
    const counter = await startConnectionCounter();
    try {
      const rules = await rulesError({ BOTRULES_CONSOLE_URL: `http://127.0.0.1:${counter.port}/api`, BOTRULES_TOKEN: SENTINEL_TOKEN });
      const scripts = await scriptsError({ BOTRULES_GATEWAY_URL: `http://127.0.0.1:${counter.port}`, BOTRULES_API_TOKEN: SENTINEL_TOKEN });
      for (const error of [rules, scripts]) {
        expect(error).toBeInstanceOf(UserError);
        expect(error.message).toContain('the service refuses plain HTTP, and the token would travel in clear');
      }
      expect(rules.message).toMatch(/^BOTRULES_CONSOLE_URL must be an https:\/\/ URL, not http:\/\/127\.0\.0\.1:\d+/);
      expect(scripts.message).toMatch(/^BOTRULES_GATEWAY_URL must be an https:\/\/ URL/);
      // Give a stray connection attempt time to arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(counter.connections()).toBe(0);
      expect(everyRendering(rules, scripts)).not.toContain(SENTINEL_TOKEN);
    } finally {
      await counter.close();
    }
  });
});

describe('NODE_EXTRA_CA_CERTS', () => {
  const base = { BOTRULES_CONSOLE_URL: 'https://console.example.com/api', BOTRULES_TOKEN: SENTINEL_TOKEN };

  it('must name a readable file', async () => {
    const missing = join(tmpdir(), 'botrules-no-such-ca.pem');
    const error = await rulesError({ ...base, NODE_EXTRA_CA_CERTS: missing });
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(
      `NODE_EXTRA_CA_CERTS names ${missing}, which cannot be read (ENOENT): ` +
        'point it at the PEM file of the CA that signed the service\'s certificate',
    );
  });

  it('must hold a PEM certificate', async () => {
    const file = join(tempDir('botrules-ca-'), 'ca.pem');
    await writeFile(file, 'not a certificate\n');
    const error = await rulesError({ ...base, NODE_EXTRA_CA_CERTS: file });
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain('which holds no PEM certificate');
  });
});
