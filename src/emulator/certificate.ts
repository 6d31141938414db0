// The emulator's TLS certificate: one self-signed certificate that is also its own CA,
// so clients trust it through NODE_EXTRA_CA_CERTS (or curl --cacert) with verification on.
// It is written next to the state file and reused across restarts while it stays valid,
// so an exported NODE_EXTRA_CA_CERTS keeps working.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface CertificatePair {
  /** PEM certificate (also the CA to trust). */
  cert: string;
  /** PEM private key. */
  key: string;
}

export interface CertificateFiles extends CertificatePair {
  caPath: string;
  keyPath: string;
}

export const CA_FILE = 'emulator-ca.pem';
export const KEY_FILE = 'emulator-key.pem';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Returns the certificate files in `dir`: the given pair, else the existing files when they
 * are still valid for a day, else a freshly generated pair.
 */
export async function ensureCertificate(dir: string, given?: CertificatePair): Promise<CertificateFiles> {
  const caPath = path.join(dir, CA_FILE);
  const keyPath = path.join(dir, KEY_FILE);
  const existing = given ? undefined : await readUsablePair(caPath, keyPath);
  const pair = given ?? existing ?? (await generateCertificate());
  if (pair !== existing) await writePair(pair, caPath, keyPath);
  return { ...pair, caPath, keyPath };
}

/** True when the certificate is valid for at least another day and belongs to the key. */
export function isUsablePair(pair: CertificatePair, now = Date.now()): boolean {
  try {
    const cert = new X509Certificate(pair.cert);
    const validTo = Date.parse(cert.validTo);
    return validTo - now > DAY_MS && cert.checkPrivateKey(createPrivateKey(pair.key));
  } catch {
    return false;
  }
}

/**
 * Generates a P-256 certificate for 127.0.0.1 and localhost. An EC key takes milliseconds
 * where RSA takes hundreds, which keeps start-up fast. basicConstraints CA:true with
 * keyCertSign lets Node's verifier and curl accept it as its own trust anchor.
 */
export async function generateCertificate(now = Date.now()): Promise<CertificatePair> {
  // Loaded only when needed: the X.509 library is the heaviest import of the emulator.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'botrules emulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // An hour of slack for clocks that disagree a little.
    notBeforeDate: new Date(now - 60 * 60 * 1000),
    notAfterDate: new Date(now + 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

async function readUsablePair(caPath: string, keyPath: string): Promise<CertificatePair | undefined> {
  try {
    const pair = { cert: await readFile(caPath, 'utf8'), key: await readFile(keyPath, 'utf8') };
    return isUsablePair(pair) ? pair : undefined;
  } catch {
    return undefined;
  }
}

async function writePair(pair: CertificatePair, caPath: string, keyPath: string): Promise<void> {
  await writeAtomically(keyPath, pair.key, 0o600);
  await writeAtomically(caPath, pair.cert, 0o644);
}

async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode });
  // writeFile's mode only applies to new files; make sure a leftover temp file gets it too.
  await chmod(temp, mode);
  await rename(temp, file);
}
