// Turns whatever got threw into a RemoteError a user can act on. got's own errors hold the
// request options (Authorization header included), so they are never attached as a cause:
// the cause is a fresh Error carrying only the code and message.
import { HTTPError, RequestError } from 'got';
import { RemoteError, UserError } from '../errors.js';
import type { ApiRequest } from './types.js';
import { shortenRedacted, type Redactor } from './redact.js';
import { RETRY_STATUS_CODES } from './retry.js';
import { parseRetryAfter, retryAfterTooLong } from './retry-after.js';
import { definedFields } from '../defined.js';

export interface FailureContext {
  /** host:port of the base URL. */
  host: string;
  /** The base URL's path (`/api/` for a console URL that names the API base). */
  basePath?: string;
  urlVariable: string;
  tokenVariable: string;
  /** Removes the token (whole, cut, encoded) from text that came from elsewhere. */
  redact: Redactor;
  /** The longest single wait a Retry-After may ask for (RetryPolicy.maxRetryAfterMs). */
  maxRetryAfterMs: number;
}

const UNTRUSTED_CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
]);
const EXPIRED_CERTIFICATE_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const NOT_TLS_CODES = new Set(['EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE']);

export function describeFailure(error: unknown, request: ApiRequest, context: FailureContext): Error {
  if (error instanceof UserError || error instanceof RemoteError) return error;
  if (!(error instanceof RequestError)) return error instanceof Error ? error : new Error(String(error));
  const attempts = (error.request?.retryCount ?? 0) + 1;
  const failed = `${request.operation} failed${attempts > 1 ? ` after ${attempts} attempts` : ''}`;
  const status = error.response?.statusCode;
  const detail = error instanceof HTTPError && status !== undefined
    ? statusDetail(status, error, request, context)
    : connectionDetail(error, context);
  // Only what the server or the network sent is redacted (in the details), never these
  // sentences: a token that starts with a common word must not mask it in botrules' own text.
  return new RemoteError(`${failed}: ${detail}`, {
    operation: request.operation,
    ...definedFields({ status }),
    cause: safeCause(error, context),
  });
}

function statusDetail(status: number, error: HTTPError, request: ApiRequest, context: FailureContext): string {
  const serverMessage = extractServerMessage(String(error.response.body ?? ''), context.redact);
  const specific = request.explainStatus?.(status, serverMessage);
  if (specific) return specific;
  const statusMessage = error.response.statusMessage ? ` ${context.redact(error.response.statusMessage)}` : '';
  const answered = `${context.host} answered ${status}${statusMessage}` +
    (serverMessage ? ` (${serverMessage})` : '');
  const retryAfterHeader = error.response.headers['retry-after'];
  const wait = RETRY_STATUS_CODES.includes(status) ? parseRetryAfter(retryAfterHeader, Date.now()) : undefined;
  if (wait !== undefined && wait.ms > context.maxRetryAfterMs) {
    return `${answered}: ${retryAfterTooLong(retryAfterHeader as string, wait, context.maxRetryAfterMs)}`;
  }
  if (status === 429) return `${answered}: the service is rate limiting; wait a little and try again`;
  if (RETRY_STATUS_CODES.includes(status)) return `${answered}: the service is having trouble; try again later`;
  if (status === 401 || status === 403) return `${answered}: the token was not accepted: check ${context.tokenVariable}`;
  if (status === 404) return `${answered}: ${notFoundAdvice(context)}`;
  return `${answered}, which botrules did not expect`;
}

/**
 * A 404 from the very first request is most often a base URL without its API path: the
 * management host's rule paths hang below `/api` (docs/behaviour.md, "Configuration and environment").
 */
function notFoundAdvice(context: FailureContext): string {
  const path = context.basePath ?? '/';
  if (context.urlVariable === 'BOTRULES_CONSOLE_URL' && !/\/api\/?$/.test(path)) {
    return `check ${context.urlVariable}: it names the management host's API base, which ends in /api (https://console.example.com/api), and this one ends in ${JSON.stringify(path)}`;
  }
  return `check that ${context.urlVariable} names the service's API base address`;
}

function connectionDetail(error: RequestError, context: FailureContext): string {
  const code = error.code;
  const host = context.host;
  if (UNTRUSTED_CERTIFICATE_CODES.has(code)) {
    return `the certificate of ${host} is not trusted (${code}); if the service uses a private CA, ` +
      'set NODE_EXTRA_CA_CERTS to the path of its PEM file';
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `the certificate of ${host} does not name that host (${context.redact(error.message)}): check ${context.urlVariable}`;
  }
  if (EXPIRED_CERTIFICATE_CODES.has(code)) return `the certificate of ${host} is not valid now (${code})`;
  if (NOT_TLS_CODES.has(code)) {
    return `${host} did not answer with TLS (${code}): check that ${context.urlVariable} names the HTTPS port`;
  }
  if (DNS_CODES.has(code)) return `the host ${host} was not found (${code}): check ${context.urlVariable}`;
  if (code === 'ECONNREFUSED') {
    return `nothing accepts connections at ${host} (ECONNREFUSED): check ${context.urlVariable} and that the service is up`;
  }
  if (code === 'ETIMEDOUT') return `no answer from ${host} in time (${context.redact(error.message)})`;
  if (DROPPED_CODES.has(code)) return `${host} dropped the connection (${code}: ${context.redact(error.message)})`;
  return `${context.redact(error.message)} (${code})`;
}

/** A cause safe to print and serialise: code and message, nothing from the request. */
function safeCause(error: RequestError, context: FailureContext): Error {
  const cause = new Error(context.redact(error.message));
  cause.name = error.name;
  Object.assign(cause, { code: error.code });
  return cause;
}

/** How much of a server's own message is quoted. */
export const SERVER_MESSAGE_LIMIT = 300;

/**
 * The useful part of an error body, or undefined: the `message` (or `error`) of a JSON
 * object, else short plain text. HTML pages (proxies, load balancers) are not quoted.
 * The token is masked before the text is shortened and again after, so no cut can leave
 * part of it behind.
 */
export function extractServerMessage(body: string, redact: Redactor): string | undefined {
  const text = body.trim();
  if (text === '' || text.startsWith('<')) return undefined;
  let message = text;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const named = [record.message, record.error, record.detail].find((v) => typeof v === 'string' && v !== '');
      message = typeof named === 'string' ? named : JSON.stringify(parsed);
    } else if (typeof parsed === 'string') {
      message = parsed;
    }
  } catch {
    // Not JSON: the plain text is the message.
  }
  return shortenRedacted(message.replace(/\s+/g, ' '), SERVER_MESSAGE_LIMIT, redact);
}
