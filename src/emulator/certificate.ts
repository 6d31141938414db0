// The emulator's TLS certificate: one self-signed leaf certificate for 127.0.0.1, ::1 and
// localhost only, trusted through NODE_EXTRA_CA_CERTS (or curl --cacert) with verification
// on. It is not a CA, so whoever holds its key can impersonate nothing but the loopback
// addresses (docs/security.md, "The emulator"). The certificate is written next to the state
// file and reused across restarts while it stays valid, so an exported NODE_EXTRA_CA_CERTS
// keeps working; the key goes in a directory of its own that tells git to ignore it.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../io/atomic-write.js';
import { DAY_MS } from '../scripts/time.js';

export interface CertificatePair {
  /** PEM certificate (also the CA to trust). */
  cert: string;
  /** PEM private key. */
  key: string;
}

interface CertificateFiles extends CertificatePair {
  caPath: string;
  keyPath: string;
}

/** The certificate to trust (the name predates the leaf certificate and is kept for scripts that use it). */
const CA_FILE = 'emulator-ca.pem';
/** The key's own directory, holding a .gitignore that ignores everything in it. */
const KEY_DIR = 'emulator-private';
/** The key's file in KEY_DIR; earlier versions wrote it beside the state file, where it is removed when found. */
const KEY_FILE = 'emulator-key.pem';
/** The only names the certificate is valid for. */
const CERTIFICATE_NAMES = 'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost';

/**
 * Returns the certificate files in `dir`: the given pair, else the existing files when they
 * are still valid for a day, else a freshly generated pair.
 */
export async function ensureCertificate(dir: string, given?: CertificatePair): Promise<CertificateFiles> {
  const caPath = path.join(dir, CA_FILE);
  const keyDir = path.join(dir, KEY_DIR);
  const keyPath = path.join(keyDir, KEY_FILE);
  const existing = given ? undefined : await readUsablePair(caPath, keyPath);
  const pair = given ?? existing ?? (await generateCertificate());
  if (pair !== existing) {
    await prepareKeyDirectory(keyDir);
    await writeFileAtomic(keyPath, pair.key, "the emulator's private key", keyPath, 0o600);
    await writeFileAtomic(caPath, pair.cert, "the emulator's certificate", caPath, 0o644);
  }
  await rm(path.join(dir, KEY_FILE), { force: true });
  return { ...pair, caPath, keyPath };
}

/**
 * True when the certificate is a loopback-only leaf (a CA from an earlier version is not),
 * is valid for at least another day and belongs to the key.
 */
export function isUsablePair(pair: CertificatePair, now = Date.now()): boolean {
  try {
    const cert = new X509Certificate(pair.cert);
    const validTo = Date.parse(cert.validTo);
    return !cert.ca && cert.subjectAltName === CERTIFICATE_NAMES &&
      validTo - now > DAY_MS && cert.checkPrivateKey(createPrivateKey(pair.key));
  } catch {
    return false;
  }
}

/**
 * Generates a P-256 leaf certificate for 127.0.0.1, ::1 and localhost. An EC key takes
 * milliseconds where RSA takes hundreds, which keeps start-up fast. CA:false without
 * keyCertSign: trusted as itself (Node and curl accept a self-signed leaf given as the CA
 * file), it can sign nothing else, so a leaked key cannot mint certificates for real hosts.
 */
export async function generateCertificate(now = Date.now()): Promise<CertificatePair> {
  // Loaded only when needed: the X.509 library is the heaviest import of the emulator. It is
  // CommonJS, so its functions are on the default export (module.exports): there Node's loader
  // and the bundled CLI's chunk (scripts/bundle.js) both put them.
  const { default: selfsigned } = await import('selfsigned');
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'botrules emulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // An hour of slack for clocks that disagree a little.
    notBeforeDate: new Date(now - 60 * 60 * 1000),
    notAfterDate: new Date(now + 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }, { type: 2, value: 'localhost' }],
      },
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

/**
 * The key's directory, readable by the owner only, with a .gitignore that keeps everything in
 * it (itself included) out of git wherever the state directory lies.
 */
async function prepareKeyDirectory(keyDir: string): Promise<void> {
  await mkdir(keyDir, { recursive: true, mode: 0o700 });
  await chmod(keyDir, 0o700);
  await writeFile(path.join(keyDir, '.gitignore'), '# The emulator\'s private key: never commit it.\n*\n');
}
