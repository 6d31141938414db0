// A server that echoes the Authorization header back, whole, cut at every length around the
// message limit, lower-cased, URL-encoded and base64-encoded: no 4-character prefix of the
// token (or of an encoded form), and no run of 8 of its characters anywhere in it, may reach an
// error, in-process or through the real binary; botrules' own words are never masked.
import { readFile, rm } from 'node:fs/promises';
import fc from 'fast-check';
import { createRulesClient } from '../../src/api/index.js';
import { SERVER_MESSAGE_LIMIT } from '../../src/api/failures.js';
import { createRedactor } from '../../src/api/redact.js';
import { RemoteError } from '../../src/errors.js';
import { everyRendering, startTinyServer, thrownBy, type TinyServer } from '../api/support.js';
import { leakedParts, leakedPrefixes, ruleProject, runBin } from './support.js';

/** Distinctive in every form: `+`, `/` and `=` change under URL encoding. */
const TOKEN = 'Zq7+wX/sentinel=k9Pq';
const ENCODED = encodeURIComponent(TOKEN);
const BASE64 = Buffer.from(TOKEN).toString('base64');
const SECRETS = [TOKEN, ENCODED, BASE64];

let echoed: (authorization: string) => string;
let server: TinyServer;

beforeAll(async () => {
  server = await startTinyServer((req, res) => {
    res.writeHead(418, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: echoed(req.headers.authorization ?? '') }));
  });
});
afterAll(() => server.close());

async function listError(token = TOKEN): Promise<RemoteError> {
  const client = createRulesClient({
    baseUrl: `${server.url}/api`, urlVariable: 'BOTRULES_CONSOLE_URL', token, tokenVariable: 'BOTRULES_TOKEN',
    app: 'default', extraCaPem: await readFile(server.caPath, 'utf8'),
  });
  const error = await thrownBy(() => client.listRules());
  expect(error).toBeInstanceOf(RemoteError);
  return error as RemoteError;
}

describe('an echoed Authorization header', () => {
  // "Bearer " puts the token 7 characters after the filler: these lengths move the cut from
  // well before the token, through every character of it, to well after it.
  const cutAt = SERVER_MESSAGE_LIMIT - 3;
  const fillers = Array.from({ length: TOKEN.length + 14 }, (_, i) => cutAt - 7 - TOKEN.length - 5 + i);

  it.each(fillers)('cut after %i characters of filler leaves no prefix of the token', async (filler) => {
    echoed = (authorization) => `${'x'.repeat(filler)}${authorization} and more text after it`;
    const error = await listError();
    expect(leakedPrefixes(everyRendering(error), SECRETS)).toEqual([]);
    // Either the whole header is masked, or the cut falls before or inside "Bearer ***".
    expect(error.message).toMatch(
      /^listing rules of app default failed: 127\.0\.0\.1:\d+ answered 418 I'm a Teapot \(x+(B?e?a?r?e?r? ?\**\.\.\.|Bearer \*\*\* [a-z ]*(\.\.\.)?)\), which botrules did not expect$/,
    );
  });

  it('is masked lower-cased, upper-cased, URL-encoded, base64-encoded and as Basic credentials', async () => {
    echoed = () =>
      `lc ${TOKEN.toLowerCase()} uc ${TOKEN.toUpperCase()} url ${ENCODED} b64 ${BASE64} ` +
      `shifted ${Buffer.from(`u${TOKEN}`).toString('base64')} basic Basic ${Buffer.from(`ci:${TOKEN}`).toString('base64')}`;
    const error = await listError();
    expect(leakedPrefixes(everyRendering(error), SECRETS)).toEqual([]);
    expect(leakedParts(everyRendering(error), SECRETS)).toEqual([]);
    expect(error.message).toContain('(lc *** uc *** url *** b64 ***');
    expect(error.message).toContain('basic Basic ***)');
  });

  it('a cut-off prefix of the token at the very end of the quoted text is masked too', async () => {
    echoed = () => `the token starts ${TOKEN.slice(0, 8)}`;
    const error = await listError();
    expect(error.message).toMatch(/\(the token starts \*\*\*\), which botrules did not expect$/);
  });

  it('a suffix or a middle of 8 characters of the token, in any case, is masked', async () => {
    echoed = () => `end ${TOKEN.slice(-8)} middle ${TOKEN.slice(5, 14).toUpperCase()} b64 ${BASE64.slice(3, 12)}.`;
    const error = await listError();
    expect(error.message).toContain('(end *** middle *** b64 ***.)');
    expect(leakedParts(everyRendering(error), SECRETS)).toEqual([]);
  });

  it('a token that starts with a common word masks none of botrules\' own words', async () => {
    echoed = () => 'nothing to see';
    const error = await listError('answered-Zq7wXk9Pq3');
    expect(error.message).toMatch(/^listing rules of app default failed: 127\.0\.0\.1:\d+ answered 418 I'm a Teapot \(nothing to see\), which botrules did not expect$/);
  });
});

describe('through the real binary', () => {
  it('plan against an echoing server exits 1 with the token masked on stderr', async () => {
    const project = await ruleProject();
    try {
      echoed = (authorization) => `${'y'.repeat(280)}${authorization}`;
      const result = await runBin(['plan', '--dir', 'rules'], {
        BOTRULES_CONSOLE_URL: `${server.url}/api`, BOTRULES_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: server.caPath,
      }, project);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/answered 418 I'm a Teapot \(y+Bearer \*\*\*/);
      expect(leakedPrefixes(result.stdout + result.stderr, SECRETS)).toEqual([]);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});

describe('the redactor', () => {
  it('leaves no 8 characters of the secret in any text holding any piece of it', () => {
    const redact = createRedactor([TOKEN]);
    fc.assert(fc.property(fc.string(), fc.string(), fc.nat(TOKEN.length), fc.nat(TOKEN.length), (before, after, from, length) => {
      const text = `${before}${TOKEN.slice(from, from + Math.max(length, 8))}${after}`;
      return leakedParts(redact(text).replace(/\*\*\*/g, ' '), [TOKEN]).length === 0 ||
        // The random text itself may spell a piece next to a mask; then it was not the token's.
        leakedParts(`${before} ${after}`, [TOKEN]).length > 0;
    }));
  });

  it('masks nothing shorter than 8 characters of the secret, so ordinary words stay', () => {
    const redact = createRedactor(['account-Zq7wXk9Pq3']);
    expect(redact('the account was wrong; t-Zq7wX stays')).toBe('the account was wrong; t-Zq7wX stays');
    expect(redact('sent account-Z back, and Xk9Pq3')).toBe('sent *** back, and Xk9Pq3');
  });

  it('masks the credential after Bearer or Basic even when it is not the token', () => {
    expect(createRedactor([TOKEN])('auth was "Bearer abc.def-ghi" and basic%20dXNlcjpwYXNz')).toBe('auth was "Bearer ***" and basic%20***');
  });
});
