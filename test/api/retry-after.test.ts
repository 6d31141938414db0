// Retry-After in both of its forms (RFC 9110 §10.2.3): seconds and an HTTP-date, and the
// sentence botrules fails with when the server asks for longer than it waits.
import { formatWait, parseRetryAfter, retryAfterTooLong } from '../../src/api/retry-after.js';

const NOW = Date.parse('2026-11-24T04:00:00Z');

describe('parseRetryAfter', () => {
  it('reads seconds from now', () => {
    expect(parseRetryAfter('3600', NOW)).toEqual({ ms: 3_600_000, until: new Date('2026-11-24T05:00:00Z') });
    expect(parseRetryAfter(' 0 ', NOW)).toEqual({ ms: 0, until: new Date(NOW) });
  });

  it('reads an HTTP-date as the absolute time, a past one as no wait', () => {
    expect(parseRetryAfter('Tue, 24 Nov 2026 06:30:00 GMT', NOW)).toEqual({ ms: 9_000_000, until: new Date('2026-11-24T06:30:00Z') });
    expect(parseRetryAfter('Tue, 24 Nov 2026 03:00:00 GMT', NOW)?.ms).toBe(0);
  });

  it('ignores what is neither form', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
  });
});

describe('the sentence for a wait longer than botrules waits', () => {
  it.each([
    ['3600', 'the service asks to wait 1 h before trying again (Retry-After: 3600, until 2026-11-24T05:00:00Z), longer than botrules waits for one retry (30 s); nothing more was sent: try again after that time'],
    ['Tue, 24 Nov 2026 06:30:00 GMT', 'the service asks to wait 2 h 30 min before trying again (Retry-After: Tue, 24 Nov 2026 06:30:00 GMT, until 2026-11-24T06:30:00Z), longer than botrules waits for one retry (30 s); nothing more was sent: try again after that time'],
  ])('gives the time of Retry-After: %s as a duration and as the absolute time', (header, sentence) => {
    const wait = parseRetryAfter(header, NOW);
    expect(wait).toBeDefined();
    expect(retryAfterTooLong(header, wait as NonNullable<typeof wait>, 30_000)).toBe(sentence);
  });

  it('says durations as people say them', () => {
    expect([20_000, 90_000, 2_700_000, 3_600_000, 3_900_000].map(formatWait)).toEqual(['20 s', '1 min 30 s', '45 min', '1 h', '1 h 5 min']);
  });
});
