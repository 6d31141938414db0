// A server's Retry-After, in either of its forms (RFC 9110 §10.2.3): a number of seconds, or an
// HTTP-date. botrules waits what it asks up to the policy's longest single wait (30 s by
// default); a longer request fails at once with a sentence giving the time the server gave, as
// a duration and as the absolute time (docs/behaviour.md, "Timeouts and retries").

interface RetryAfter {
  /** How long from `now` the server asks to wait (never negative). */
  ms: number;
  /** When the server says to try again. */
  until: Date;
}

/** The header's wait, or undefined when it is missing or neither form. */
export function parseRetryAfter(header: string | undefined, now: number): RetryAfter | undefined {
  const text = header?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) {
    const ms = Number(text) * 1000;
    return Number.isFinite(ms) ? { ms, until: new Date(now + ms) } : undefined;
  }
  // An HTTP-date starts with the day's name (IMF-fixdate, RFC 850 and asctime forms alike);
  // Date.parse alone would also take "-5" or "2" for a year.
  const at = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return { ms: Math.max(0, at - now), until: new Date(at) };
}

/** "1 h 5 min", "45 min 30 s", "20 s": a wait as people say it. */
export function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`;
  return `${rest} s`;
}

/**
 * The sentence for a Retry-After longer than botrules waits: the time the server gave (as it
 * sent it, shortened), as a duration and an absolute time, and the longest wait botrules allows.
 */
export function retryAfterTooLong(header: string, wait: RetryAfter, maxWaitMs: number): string {
  const shown = header.trim().slice(0, 64);
  return (
    `the service asks to wait ${formatWait(wait.ms)} before trying again (Retry-After: ${shown}, ` +
    `until ${wait.until.toISOString().replace(/\.\d{3}Z$/, 'Z')}), longer than botrules waits for one retry ` +
    `(${formatWait(maxWaitMs)}); nothing more was sent: try again after that time`
  );
}
