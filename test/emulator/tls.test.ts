// TLS: the emulator's certificate verifies as its own CA (Node here, curl in tls-curl.e2e), verification
// is never switched off, an untrusted client is refused, and plain HTTP gets no answer.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { X509Certificate } from 'node:crypto';
import { generateCertificate, isUsablePair } from '../../src/emulator/certificate.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { RULES } from './https-request.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ generateRules: 2 });
});
afterAll(() => t.close());

function get(client: typeof https | typeof http, url: string, options: https.RequestOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    client
      .get(url, { ...options, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

test('Node verifies the certificate with it as the only CA, for 127.0.0.1 and localhost', async () => {
  const ca = await readFile(t.emulator.caPath);
  const headers = { Authorization: `Bearer ${t.env.BOTRULES_TOKEN}` };
  expect(await get(https, `${t.emulator.consoleUrl}/v2/botProtection/customRules`, { ca, headers })).toBe(200);
  const localhost = `https://localhost:${t.emulator.port}${RULES}`;
  expect(await get(https, localhost, { ca, headers })).toBe(200);
});

test('a client that does not trust the certificate is refused', async () => {
  await expect(get(https, `${t.emulator.url}${RULES}`, {})).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
});

test('plain HTTP to the port gets no HTTP answer', async () => {
  await expect(get(http, `http://127.0.0.1:${t.emulator.port}${RULES}`, {})).rejects.toThrow();
});

test('generated certificates are leaf certificates for 127.0.0.1, ::1 and localhost only, valid for a year', async () => {
  const now = Date.now();
  const pair = await generateCertificate(now);
  const cert = new X509Certificate(pair.cert);
  expect(cert.ca).toBe(false);
  expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
  expect(cert.checkHost('example.com')).toBeUndefined();
  expect(Date.parse(cert.validTo)).toBeGreaterThan(now + 360 * 24 * 60 * 60 * 1000);
  expect(isUsablePair(pair)).toBe(true);
  expect(isUsablePair(pair, Date.parse(cert.validTo))).toBe(false);
  const other = await generateCertificate(now);
  expect(isUsablePair({ cert: pair.cert, key: other.key })).toBe(false);
});
