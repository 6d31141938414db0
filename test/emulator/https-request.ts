// A plain HTTPS client for the emulator's tests: Node's https with the emulator's CA as the
// only trust anchor (verification stays on), independent of the tool's own API client.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { RunningEmulator } from '../../src/emulator/index.js';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface RequestOptions {
  method?: string;
  /** Sent as `Authorization: Bearer <token>` when given. */
  token?: string;
  /** JSON-encoded unless it is already a string. */
  body?: unknown;
  query?: Record<string, string | number>;
}

export function request(emulator: RunningEmulator, path: string, options: RequestOptions = {}): Promise<Answer> {
  const url = new URL(path, emulator.url);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: options.method ?? 'GET',
        ca: readFileSync(emulator.caPath),
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const RULES = '/api/v2/botProtection/customRules';
export const SCRIPTS = '/v1/scripts';

/** The rule list of the app the token belongs to. */
export async function listRules(emulator: RunningEmulator, token: string): Promise<Array<Record<string, unknown>>> {
  const answer = await request(emulator, RULES, { token });
  if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
  return (answer.body as { content: Array<Record<string, unknown>> }).content;
}

export function patchRule(emulator: RunningEmulator, token: string, ruleId: string, body: unknown): Promise<Answer> {
  return request(emulator, `${RULES}/${encodeURIComponent(ruleId)}`, { method: 'PATCH', token, body });
}
