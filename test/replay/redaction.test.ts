// Redaction on read: a log full of secrets (cookies, Authorization, secret-named headers,
// query and custom parameters, credentials in URLs and free text) is replayed in every output
// format, with --verbose, and no secret appears anywhere in stdout or stderr, although the
// requests that carried them are printed as examples. Names the project configures
// (botrules.yaml replay.secretNames) are masked like the built-in ones.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TestRequest } from '../../src/evaluate/request.js';
import { isSecretName, redactRequest, REDACTED, secretNameTest, splitTarget } from '../../src/replay/redact.js';
import { botrules, replayProject } from './fixtures.js';

/** Every secret of the logs: each is distinctive, so finding it anywhere is a leak. */
const SECRETS = Array.from({ length: 17 }, (_, i) => `s3cr3t${String(i).padStart(2, '0')}x`);
const [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16] = SECRETS as string[] as [string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string];

// Every line is a transition (/login: challenge → block, /checkout: none → challenge), and each
// file is replayed alone, so every request that carries a secret is printed as an example.
const NDJSON = [
  { path: '/login', headers: { Authorization: `Bearer ${s0}`, Cookie: `sid=${s1}`, 'X-Api-Key': s2 } },
  { path: `/login?access_token=${s3}&q=shoes`, query: { password: s4 }, custom: { sessionId: s5 } },
  { path: '/login', headers: { Referer: `https://shop.example.com/cb?code=1&client_secret=${s6}`, 'x-trace': `Basic ${s7}` } },
  // Secret only by the project's configured names (replay.secretNames: [x-shop-ref, ref]).
  { path: '/checkout', headers: { 'X-Shop-Ref': s14, Referer: `https://shop.example.com/?ref=${s15}` }, query: { REF: s16 } },
].map((line) => JSON.stringify(line)).join('\n');
const CSV = ['path,headers.authorization,query.token,headers.x-csrf-token', `/login,Bearer ${s8},${s9},${s10}`, ''].join('\n');
const COMBINED = [
  `203.0.113.7 - - [10/Oct/2026:13:55:37 +0000] "GET /checkout;jsessionid=${s11}?signature=${s12} HTTP/1.1" 200 1 "https://user:${s13}@shop.example.com/" "Mozilla/5.0"`,
  '',
].join('\n');

let project: string;
beforeAll(() => {
  project = replayProject();
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\nreplay:\n  secretNames: [x-shop-ref, ref]\n');
  writeFileSync(path.join(project, 'secrets.ndjson'), NDJSON);
  writeFileSync(path.join(project, 'secrets.csv'), CSV);
  writeFileSync(path.join(project, 'secrets.log.gz'), gzipSync(COMBINED));
});

const MASKED_PER_FILE: [string, number][] = [['secrets.ndjson', 12], ['secrets.csv', 3], ['secrets.log.gz', 3]];
const CASES = ['text', 'json', 'markdown'].flatMap((format) => MASKED_PER_FILE.map(([file, masked]) => [format, file, masked] as const));

it.each(CASES)('no secret reaches the %s output or stderr of %s', async (format, file, masked) => {
  const result = await botrules(project, 'replay', '--verbose', '--live', 'live.json', '--format', format, file);
  expect(result.code).toBe(2);
  const output = `${result.stdout}\n${result.stderr}`;
  expect(SECRETS.filter((secret) => output.includes(secret))).toEqual([]);
  // The requests that carried them are printed, masked.
  expect(output.split(REDACTED).length - 1).toBe(masked);
});

it('prints the masked example requests as read', async () => {
  const result = await botrules(project, 'replay', '--live', 'live.json', 'secrets.ndjson');
  expect(result.stdout.split('\n').filter((line) => line.includes('e.g.'))).toEqual([
    '        e.g. secrets.ndjson:4 {"path":"/checkout","headers":{"X-Shop-Ref":"[redacted]","Referer":"https://shop.example.com/?ref=[redacted]"},"query":{"REF":"[redacted]"}}',
    '        e.g. secrets.ndjson:1 {"path":"/login","headers":{"Authorization":"[redacted]","Cookie":"[redacted]","X-Api-Key":"[redacted]"}}',
    '        e.g. secrets.ndjson:2 {"path":"/login","query":{"access_token":"[redacted]","q":"shoes","password":"[redacted]"},"custom":{"sessionId":"[redacted]"}}',
    '        e.g. secrets.ndjson:3 {"path":"/login","headers":{"Referer":"https://shop.example.com/cb?code=[redacted]&client_secret=[redacted]","x-trace":"Basic [redacted]"}}',
  ]);
});

it('masks the names the project configures, ignoring case, in values, free text and the query', () => {
  const isSecret = secretNameTest(['x-shop-ref', 'ref']);
  expect(redactRequest({ headers: { 'X-Shop-Ref': 'a', Referer: 'https://x/?ref=b&q=c' }, query: { REF: 'd', q: 'e' } }, isSecret)).toEqual({
    headers: { 'X-Shop-Ref': REDACTED, Referer: 'https://x/?ref=[redacted]&q=c' }, query: { REF: REDACTED, q: 'e' },
  });
  expect(redactRequest({ headers: { 'X-Shop-Ref': 'a' } })).toEqual({ headers: { 'X-Shop-Ref': 'a' } });
});

describe('secret names and request targets', () => {
  it.each(['Authorization', 'cookie', 'X-API-Key', 'api_key', 'access_token', 'client_secret', 'password', 'passwd', 'PHPSESSID', 'X-Amz-Signature', 'x-csrf-token', 'jwt', 'key'])('%s is secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['user-agent', 'referer', 'accept', 'x-monitor', 'q', 'page', 'monkey-business', 'x-forwarded-for'])('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it('splits a target into its path and decoded parameters, first value kept', () => {
    expect(splitTarget('/a?x=1&y=%2Fb&x=2&flag&&z=a+b')).toEqual({ path: '/a', query: { x: '1', y: '/b', flag: '', z: 'a b' } });
    expect(splitTarget('/plain')).toEqual({ path: '/plain' });
  });

  it('keeps the names of masked parameters, so $exists still decides as on the original', () => {
    expect(redactRequest({ headers: { Authorization: 'x' }, query: { token: 'y', q: 'z' } })).toEqual({ headers: { Authorization: REDACTED }, query: { token: REDACTED, q: 'z' } });
  });
});

describe('credential carriers the masking once missed', () => {
  it.each([
    ['a fragment', { headers: { referer: 'https://idp.example/cb#access_token=S1&state=x' } }, { headers: { referer: 'https://idp.example/cb#access_token=[redacted]&state=x' } }],
    ['id_token inside a query value', { query: { next: 'https://shop.example/cb?id_token=S2' } }, { query: { next: 'https://shop.example/cb?id_token=[redacted]' } }],
    ['an encoded redirect in free text', { headers: { referer: 'https://x/?return=%2Fcb%3Fid_token%3DS3' } }, { headers: { referer: 'https://x/?return=[redacted]' } }],
    ['pass, pw, code, otp, pin', { query: { pass: 'a', pw: 'b', code: 'c', otp: 'd', pin: 'e', page: '2' } }, { query: { pass: REDACTED, pw: REDACTED, code: REDACTED, otp: REDACTED, pin: REDACTED, page: '2' } }],
    ['SAMLResponse, ticket, client_assertion', { custom: { SAMLResponse: 'a', ticket: 'b', client_assertion: 'c' } }, { custom: { SAMLResponse: REDACTED, ticket: REDACTED, client_assertion: REDACTED } }],
    ['a percent-encoded name', { headers: { referer: 'https://x/?%74oken=S4&q=1' } }, { headers: { referer: 'https://x/?%74oken=[redacted]&q=1' } }],
    ['the tail of a Bearer credential', { headers: { 'x-upstream': 'Bearer abc%3AS5def' } }, { headers: { 'x-upstream': 'Bearer [redacted]' } }],
  ] as [string, TestRequest, TestRequest][])('%s', (_what, request, masked) => {
    expect(redactRequest(request)).toEqual(masked);
  });

  it('compares names decoded: a query parameter read from %74oken is a token', () => {
    expect(isSecretName('%74oken')).toBe(true);
    expect(redactRequest({ path: '/a', query: splitTarget('/a?%74oken=S6').query ?? {} })).toEqual({ path: '/a', query: { token: REDACTED } });
  });
});
