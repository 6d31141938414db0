// The one place that opens connections: a got instance per host, HTTPS only, no redirects,
// retries built in, every failure turned into a RemoteError that never carries the token.
import got, { type Got, type Response } from 'got';
import { Agent } from 'node:https';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { RemoteError, UserError } from '../errors.js';
import { VERSION } from '../version.js';
import { describeFailure, extractServerMessage, type FailureContext } from './failures.js';
import { createRedactor } from './redact.js';
import { gotRetryOptions } from './retry.js';
import { DEFAULT_RETRY_POLICY, type ApiRequest, type HostOptions } from './types.js';
import { definedFields } from '../defined.js';

/**
 * Per attempt: connecting, the TLS handshake, sending and reading the whole answer. With the
 * retries a timed-out attempt gets (see retry.ts), a server that accepts connections but never
 * answers is given up on after about 32 s (docs/behaviour.md, "Timeouts and retries").
 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The largest answer botrules reads (docs/security.md, "Bounded resources"): a rule list of a
 * few thousand rules or a script page of thousands of records is a few MiB at most.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

interface HostClient {
  /** Sends the request (retrying when that is safe) and resolves to the parsed JSON of a 2xx answer. */
  send(request: ApiRequest): Promise<unknown>;
}

export function createHostClient(options: HostOptions): HostClient {
  const base = parseHttpsBaseUrl(options.baseUrl, options.urlVariable);
  if (options.token === '') throw new UserError(`${options.tokenVariable} is empty: set it to the token for ${base.host}`);
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const debug = options.debug ?? (() => {});
  const notice = options.notice ?? (() => {});
  const maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const instance = got.extend({
    prefixUrl: base.href,
    headers: {
      authorization: `Bearer ${options.token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      // Compressed answers could expand far beyond the size limit before it is checked.
      'accept-encoding': 'identity',
      'user-agent': `botrules/${VERSION}`,
    },
    timeout: { request: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
    // A redirect could carry the Authorization header to another host: never follow one.
    followRedirect: false,
    // Whatever the server sends, the bytes counted against the limit are the bytes parsed.
    decompress: false,
    retry: gotRetryOptions(policy, notice),
    agent: { https: hostAgent(options.extraCaPem) },
  });
  const redact = createRedactor([options.token]);
  const failureContext = {
    host: base.host, basePath: base.pathname, urlVariable: options.urlVariable, tokenVariable: options.tokenVariable, redact, maxRetryAfterMs: policy.maxRetryAfterMs,
  };

  async function send(request: ApiRequest): Promise<unknown> {
    const started = Date.now();
    let response: Response<Buffer>;
    const sizeCheck = { exceeded: false };
    try {
      response = await call(instance, request, maxResponseBytes, sizeCheck);
    } catch (error) {
      if (sizeCheck.exceeded) throw tooLarge(request, failureContext, maxResponseBytes);
      throw describeFailure(error, request, failureContext);
    }
    const attempts = response.retryCount + 1;
    debug(
      `${request.method} ${response.url} -> ${response.statusCode} in ${Date.now() - started} ms` +
        (attempts > 1 ? ` (${attempts} attempts)` : ''),
    );
    if (response.statusCode >= 300) throw redirectRefused(response, request, failureContext);
    const encoding = response.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      // Asked for identity: a compressed answer is not decompressed (it could expand without bound).
      throw new RemoteError(
        `${request.operation} failed: the answer from ${failureContext.host} is compressed (${redact(encoding.slice(0, 40))}) ` +
          'although botrules asked for an uncompressed one (accept-encoding: identity); botrules does not decompress answers',
        { operation: request.operation, status: response.statusCode },
      );
    }
    return parseJsonBody(response, request, failureContext);
  }

  return { send };
}

/**
 * One keep-alive agent per host client, holding the trusted CAs as one secure context.
 * Node reads NODE_EXTRA_CA_CERTS only at start-up; trusting the PEM here makes a value given
 * to this process's commands (and in-process tests) count the same way. Passed per request
 * instead (got's `https.certificateAuthority`), Node's agent joins all ~140 root certificates
 * into its pool key on every request (a 0.2 MB string each time, the largest share of a long
 * export's garbage) and parses them again for every new connection; here they are parsed
 * once per process and extra CA (trustStore). Verification is unchanged: the context is the
 * trust store, and the host name is still checked. Sockets are bounded by the callers' own
 * concurrency (the pager, apply).
 */
function hostAgent(extraCaPem: string | undefined): Agent {
  return new Agent({
    keepAlive: true,
    // As Node's global agent: reuse the most recently freed socket, drop idle ones after 5 s.
    scheduling: 'lifo',
    timeout: 5_000,
    ...(extraCaPem ? { secureContext: trustStore(extraCaPem) } : {}),
  });
}

/** The trust stores built so far, by extra CA: a process's commands (and in-process tests) mostly share one. */
const trustStores = new Map<string, SecureContext>();

/** The root certificates and `extraCaPem` as one secure context, built once per process: parsing the ~140 roots takes tens of milliseconds. */
function trustStore(extraCaPem: string): SecureContext {
  let context = trustStores.get(extraCaPem);
  if (context === undefined) {
    context = createSecureContext({ ca: [...rootCertificates, extraCaPem] });
    trustStores.set(extraCaPem, context);
  }
  return context;
}

/** Parses a base URL and refuses anything but https, before any connection is made. */
function parseHttpsBaseUrl(value: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The value is not echoed: a mistyped variable may hold a token.
    throw new UserError(`${variable} is not a valid URL (${value.length} characters, not shown)`, [
      'Set it to an https:// address, e.g. https://console.example.com/api',
    ]);
  }
  if (url.username !== '' || url.password !== '') {
    // got would send them as Basic authentication, and --verbose would print the URL.
    throw new UserError(
      `${variable} holds a user name or password (user:password@host): remove them; ` +
        'botrules authenticates with the token alone and never sends credentials from a URL',
    );
  }
  if (url.protocol !== 'https:') {
    throw new UserError(
      `${variable} must be an https:// URL, not ${url.protocol}//${url.host}: ` +
        'the service refuses plain HTTP, and the token would travel in clear',
    );
  }
  // got joins the request path to the prefix, which must end in a slash.
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * Sends one request. An answer that announces or delivers more than `maxBytes` is cancelled
 * as soon as that is known (an endless body included), and `sizeCheck.exceeded` says why.
 */
function call(instance: Got, request: ApiRequest, maxBytes: number, sizeCheck: { exceeded: boolean }): Promise<Response<Buffer>> {
  const pending = instance(request.path, {
    method: request.method,
    ...definedFields({ searchParams: request.searchParams, json: request.json }),
    // The raw bytes, decoded only to be parsed: with 'text' got also keeps the decoded string
    // on the response, and that second copy of every page outlived the request often enough
    // to be promoted to the old generation (about half of what a long export promoted).
    responseType: 'buffer',
  });
  // on() returns the request itself, which the caller awaits.
  return pending.on('downloadProgress', ({ transferred, total }) => {
    if (sizeCheck.exceeded || (transferred <= maxBytes && (total === undefined || total <= maxBytes))) return;
    sizeCheck.exceeded = true;
    pending.cancel();
  });
}

function tooLarge(request: ApiRequest, context: FailureContext, maxBytes: number): RemoteError {
  return new RemoteError(
    `${request.operation} failed: the answer from ${context.host} is larger than ${maxBytes / (1024 * 1024)} MiB, ` +
      `the most botrules reads; check that ${context.urlVariable} names the service's API`,
    { operation: request.operation },
  );
}

function redirectRefused(response: Response<Buffer>, request: ApiRequest, context: FailureContext): RemoteError {
  const location = response.headers.location;
  let target = 'an unnamed location';
  if (location) {
    try {
      target = new URL(location, response.url).host;
    } catch {
      target = `"${location.slice(0, 100)}"`;
    }
  }
  return new RemoteError(
    `${request.operation} failed: the service answered ${response.statusCode} redirecting to ${context.redact(target)}; ` +
      `botrules does not follow redirects, so the token never leaves ${context.host}: ` +
      `check ${context.urlVariable} (it should name the API host itself)`,
    { operation: request.operation, status: response.statusCode },
  );
}

function parseJsonBody(response: Response<Buffer>, request: ApiRequest, context: FailureContext): unknown {
  // 204 No Content (GitHub's answer to a DELETE) has no body to parse.
  if (response.statusCode === 204) return null;
  const text = response.body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const type = response.headers['content-type'] ?? 'no content type';
    const excerpt = extractServerMessage(text, context.redact);
    throw new RemoteError(
      `${request.operation} failed: the answer from ${context.host} is not JSON (${context.redact(type)})` +
        (excerpt ? `: ${excerpt}` : '') +
        `; check that ${context.urlVariable} is the API base address`,
      { operation: request.operation, status: response.statusCode },
    );
  }
}
