// The HTTPS server: one port serves both hosts' paths (docs/service-api.md, "Hosts and paths"). Each request is read,
// delayed by the configured latency, possibly hit by an injected fault, answered, and
// logged (without headers, so never with the token).
import { timingSafeEqual } from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CertificatePair } from './certificate.js';
import type { FaultSet, FaultSpec } from './faults.js';
import type { RequestLog, RequestLogEntry } from './log.js';
import { CONSOLE_PATH, consoleCreate } from './console-api.js';
import { createRuleAnswer, deleteRuleAnswer, listRulesAnswer, patchRuleAnswer, type ApiAnswer } from './rules-api.js';
import type { Capability, MoveSemantics } from './options.js';
import { listScriptsAnswer } from './scripts-api.js';
import type { StateStore, StoredApp } from './state.js';
import { parseJsonOr } from '../io/json-depth.js';

export const RULES_PATH = '/api/v2/botProtection/customRules';
const SCRIPTS_PATH = '/v1/scripts';

const MAX_BODY_BYTES = 1024 * 1024;

export interface ServerSettings {
  latencyMs: number;
  moveSemantics: MoveSemantics;
  maxTake: number;
  /** What the rule API accepts besides list and PATCH (--capabilities); without one, 405. */
  capabilities: ReadonlySet<Capability>;
}

interface ServerContext {
  store: StateStore;
  faults: FaultSet;
  log: RequestLog;
  settings: ServerSettings;
  gatewayUrl(): string;
  now(): number;
}

export function createEmulatorServer(tls: CertificatePair, ctx: ServerContext): https.Server {
  return https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    handle(req, res, ctx).catch((err: unknown) => {
      // Only a bug in the emulator gets here; answer 500 so the client is not left hanging.
      console.error('botrules emulator: internal error:', err);
      if (!res.headersSent) send(res, { status: 500, body: { message: 'internal emulator error' } });
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: ServerContext): Promise<void> {
  const started = performance.now();
  // The arrival, as `ms` counts from it: taken after the body was read, time + ms would end
  // after the answer by the reading time, and requests sent one after another would seem to overlap.
  const arrived = new Date(ctx.now()).toISOString();
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'https://emulator.invalid');
  const text = await readBody(req);
  const entry: RequestLogEntry = {
    time: arrived,
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    ...(text === undefined || text === '' ? {} : { body: parseJsonOr(text, () => undefined) ?? text }),
    status: 0,
    ms: 0,
  };
  if (ctx.settings.latencyMs > 0) await sleep(ctx.settings.latencyMs);
  const fault = ctx.faults.pick(method, url.pathname);
  if (fault) {
    entry.fault = fault.text;
    entry.status = injectFault(fault, req, res, url.pathname);
  } else {
    const answer = text === undefined ? tooLarge() : route(method, url, req.headers.authorization, text, ctx);
    send(res, answer);
    entry.status = answer.status;
  }
  entry.ms = Math.round((performance.now() - started) * 100) / 100;
  ctx.log.add(entry);
}

function route(method: string, url: URL, authorization: string | undefined, text: string, ctx: ServerContext): ApiAnswer {
  const path = url.pathname;
  if (path === RULES_PATH || path === `${RULES_PATH}/`) {
    const creates = method === 'POST' && ctx.settings.capabilities.has('create');
    if (method !== 'GET' && !creates) return notAllowed(method, path);
    const app = appFor(authorization, ctx);
    if (!app) return rulesUnauthenticated();
    if (method === 'GET') return listRulesAnswer(app);
    return changing(createRuleAnswer(app, parseJsonOr(text, () => undefined) ?? text), ctx);
  }
  if (path.startsWith(`${RULES_PATH}/`)) {
    const ruleId = decodeSegment(path.slice(RULES_PATH.length + 1));
    if (ruleId === undefined) return { status: 404, body: { result: false, message: `no such path: ${path}` } };
    const deletes = method === 'DELETE' && ctx.settings.capabilities.has('delete');
    if (method !== 'PATCH' && !deletes) return notAllowed(method, path);
    const app = appFor(authorization, ctx);
    if (!app) return rulesUnauthenticated();
    if (deletes) return changing(deleteRuleAnswer(app, ruleId), ctx);
    const body = parseJsonOr(text, () => undefined);
    if (body === undefined) return { status: 400, body: { result: false, message: 'the request body must be a JSON object' } };
    return changing(patchRuleAnswer(app, ruleId, body, ctx.settings.moveSemantics), ctx);
  }
  if (path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`)) return consoleRoute(method, path, authorization, text, ctx);
  if (path === SCRIPTS_PATH) {
    if (method !== 'GET') return notAllowed(method, path);
    if (!tokenMatches(authorization, ctx.store.state.apiToken)) {
      return { status: 401, body: { message: 'access token missing or invalid' } };
    }
    const options = { gatewayUrl: ctx.gatewayUrl(), maxTake: ctx.settings.maxTake, now: ctx.now() };
    return listScriptsAnswer(ctx.store.state.scripts, url.searchParams, options);
  }
  return { status: 404, body: { message: `no such path: ${path}` } };
}

/** An answer that may have changed the state: saved soon when it did. */
function changing(answer: ApiAnswer & { changed: boolean }, ctx: ServerContext): ApiAnswer {
  if (answer.changed) ctx.store.changed();
  return { status: answer.status, body: answer.body };
}

/** The console's own path (console-api.ts): not part of the service API. */
function consoleRoute(method: string, path: string, authorization: string | undefined, text: string, ctx: ServerContext): ApiAnswer {
  const app = appFor(authorization, ctx);
  if (!app) return rulesUnauthenticated();
  if (path === CONSOLE_PATH) return method === 'POST' ? changing(consoleCreate(app, parseJsonOr(text, () => undefined)), ctx) : notAllowed(method, path);
  // A console delete is the rule API's delete (behind --capabilities delete there).
  const ruleId = decodeSegment(path.slice(CONSOLE_PATH.length + 1));
  if (ruleId === undefined) return { status: 404, body: { result: false, message: `no such path: ${path}` } };
  return method === 'DELETE' ? changing(deleteRuleAnswer(app, ruleId), ctx) : notAllowed(method, path);
}

/** The app whose server token the request carries (docs/service-api.md, "Authentication": the token picks the app). */
function appFor(authorization: string | undefined, ctx: ServerContext): StoredApp | undefined {
  return Object.values(ctx.store.state.apps).find((app) => tokenMatches(authorization, app.token));
}

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function rulesUnauthenticated(): ApiAnswer {
  // The rule list (docs/service-api.md, "Errors") answers 400 (not 401) when the token is missing or invalid.
  return { status: 400, body: { result: false, message: 'request invalid or lacks proper authentication' } };
}

function notAllowed(method: string, path: string): ApiAnswer {
  return { status: 405, body: { message: `${method} is not supported on ${path}` } };
}

function tooLarge(): ApiAnswer {
  return { status: 413, body: { message: `request body larger than ${MAX_BODY_BYTES} bytes` } };
}

/** Answers with the fault's status, or destroys the connection; returns the status logged. */
function injectFault(fault: FaultSpec, req: IncomingMessage, res: ServerResponse, path: string): number {
  if (fault.effect.kind === 'drop') {
    req.socket.destroy();
    return 0;
  }
  const { status, retryAfter } = fault.effect;
  const message = `injected fault: status ${status}`;
  const body = path.startsWith(RULES_PATH) ? { result: false, message } : { message };
  send(res, { status, body }, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
  return status;
}

function send(res: ServerResponse, answer: ApiAnswer, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** The body as text; undefined when it exceeds the limit (the rest is read and discarded). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

function decodeSegment(segment: string): string | undefined {
  if (segment === '' || segment.includes('/')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
