// Retries through got's own retry machinery: got decides whether a failure may be retried
// (attempt limit, method, status or error code) and re-sends the request; we only choose
// how long to wait and say so in one line the user always sees, so waiting is never silent.
import type { RequestError, RetryObject, RetryOptions } from 'got';
import type { RetryPolicy } from './types.js';

/** Answers that mean "try again later": timeout, rate limit, transient server trouble. */
export const RETRY_STATUS_CODES: readonly number[] = [408, 429, 500, 502, 503, 504];

/** Connection failures worth another attempt ("socket hang up" carries ECONNRESET). */
const RETRY_ERROR_CODES: readonly string[] = ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN'];

/**
 * Attempts in all for a request that timed out. A silent server costs a full timeout per
 * attempt, so it gets fewer than other failures: with the default 10 s timeout botrules gives
 * up after about 32 s instead of several minutes (docs/behaviour.md, "Timeouts and retries").
 */
export const TIMED_OUT_ATTEMPTS = 3;

export function gotRetryOptions(policy: RetryPolicy, notice: (line: string) => void): Partial<RetryOptions> {
  return {
    limit: policy.limit,
    // Both operations are idempotent: a PATCH body carries absolute values, so sending it
    // twice leaves the rule as sending it once would.
    methods: ['GET', 'PATCH'],
    statusCodes: [...RETRY_STATUS_CODES],
    errorCodes: [...RETRY_ERROR_CODES],
    // got would give up on a longer Retry-After silently; calculateDelay decides instead, so
    // that the failure can say what the server asked (failures.ts).
    maxRetryAfter: Number.POSITIVE_INFINITY,
    calculateDelay: (retry) => retryDelay(retry, policy, notice),
  };
}

/** Milliseconds to wait before the next attempt; 0 means "do not retry". */
function retryDelay(retry: RetryObject, policy: RetryPolicy, notice: (line: string) => void): number {
  // got's verdict from the limit, the method and the kind of failure: 0 rules a retry out.
  if (retry.computedValue === 0) return 0;
  const timedOut = retry.error.code === 'ETIMEDOUT';
  const attempts = timedOut ? Math.min(TIMED_OUT_ATTEMPTS, policy.limit + 1) : policy.limit + 1;
  if (retry.attemptCount >= attempts) return 0;
  const serverAsked = retry.retryAfter !== undefined && Number.isFinite(retry.retryAfter);
  // Longer than botrules waits for one retry: fail at once, saying the time the server gave
  // (failures.ts), rather than retry sooner than it asked.
  if (serverAsked && (retry.retryAfter as number) > policy.maxRetryAfterMs) return 0;
  const wanted = serverAsked ? (retry.retryAfter as number) : fullJitterBackoff(retry.attemptCount, policy);
  // got treats 0 as "stop", so the shortest wait is 1 ms.
  const delayMs = Math.max(1, Math.round(wanted));
  notice(
    `retrying ${requestLabel(retry.error)} after ${failureLabel(retry.error)} ` +
      `(attempt ${retry.attemptCount + 1} of ${attempts}, waiting ${formatDelay(delayMs)}` +
      `${serverAsked ? ', as Retry-After asks' : ''})`,
  );
  return delayMs;
}

/** Exponential backoff with full jitter: spreads clients out after a shared outage. */
function fullJitterBackoff(attemptCount: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attemptCount - 1));
  return Math.random() * ceiling;
}

/** "GET /api/v2/botProtection/customRules": method and path, never headers. */
function requestLabel(error: RequestError): string {
  const url = error.options?.url;
  const where = url instanceof URL ? `${url.pathname}${url.search}` : String(url ?? '');
  return `${error.options?.method ?? 'request'} ${where}`;
}

/** "503" for an answer, "ECONNRESET (socket hang up)" for a connection failure. */
function failureLabel(error: RequestError): string {
  const status = error.response?.statusCode;
  if (status !== undefined) return String(status);
  return error.code && error.code !== error.message ? `${error.code} (${error.message})` : error.message;
}

function formatDelay(ms: number): string {
  return ms >= 100 ? `${(ms / 1000).toFixed(1)}s` : `${ms}ms`;
}
