// The client side of the emulator's console (console-api.ts), for `botrules emulator console`:
// the same environment as every command (BOTRULES_CONSOLE_URL, the app's token, the CA in
// NODE_EXTRA_CA_CERTS, which Node trusts for every TLS connection), one HTTPS request.
import https from 'node:https';
import { UserError } from '../errors.js';
import { CONSOLE_PATH } from './console-api.js';
import { RULES_PATH } from './server.js';
import type { ListedRule } from './state.js';
import { parseJsonOr } from '../io/json-depth.js';

interface ConsoleTarget {
  /** BOTRULES_CONSOLE_URL: the emulator's `https://127.0.0.1:PORT/api`. */
  consoleUrl: string;
  token: string;
}

/** Creates a rule as a console user would; resolves to the rule as the emulator stored it. */
export async function createConsoleRule(target: ConsoleTarget, fields: { name: string; status: 'active' | 'paused'; position?: number }): Promise<ListedRule> {
  return (await call(target, 'POST', CONSOLE_PATH, fields)) as ListedRule;
}

/** Deletes the rule with this ruleId, or else the one rule with this name. */
export async function deleteConsoleRule(target: ConsoleTarget, idOrName: string): Promise<ListedRule> {
  const live = (await call(target, 'GET', RULES_PATH)) as ListedRule[];
  const byId = live.find((rule) => rule.ruleId === idOrName);
  const byName = live.filter((rule) => rule.name === idOrName);
  if (byId === undefined && byName.length > 1) {
    throw new UserError(`${byName.length} rules are named ${JSON.stringify(idOrName)}: give the ruleId of the one to delete`, byName.map((rule) => rule.ruleId));
  }
  const rule = byId ?? byName[0];
  if (rule === undefined) throw new UserError(`no rule has the ruleId or name ${JSON.stringify(idOrName)}`);
  return (await call(target, 'DELETE', `${CONSOLE_PATH}/${encodeURIComponent(rule.ruleId)}`)) as ListedRule;
}

function call(target: ConsoleTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = new URL(path, new URL(target.consoleUrl).origin);
  if (url.protocol !== 'https:') throw new UserError('BOTRULES_CONSOLE_URL must be an https:// URL');
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = https.request(url, {
      method,
      headers: { Authorization: `Bearer ${target.token}`, ...(payload && { 'Content-Type': 'application/json' }) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answer = parse(Buffer.concat(chunks).toString('utf8'));
        if ((response.statusCode ?? 500) >= 400) reject(new UserError(`the emulator's console answered ${response.statusCode}: ${answer.message ?? 'no message'}`));
        else resolve(answer.content);
      });
    });
    request.on('error', (err) => reject(new UserError(`cannot reach the emulator at ${url.origin}: ${err.message}`)));
    request.end(payload);
  });
}

function parse(text: string): { message?: string; content?: unknown } {
  const value = parseJsonOr(text, () => ({}));
  return value !== null && typeof value === 'object' ? (value as { message?: string; content?: unknown }) : {};
}
