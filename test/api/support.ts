// Test support for the API client: a command context over captured streams, small real
// servers for answers the emulator never gives (redirects, broken bodies, a wrong
// certificate), and the check that a token never leaks.
import { writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { inspect } from 'node:util';
import { generate } from 'selfsigned';
import { createContext, type CommandContext } from '../../src/cli/context.js';
import { tempDir } from '../helpers/temp.js';

/** A token distinctive enough that finding it anywhere means it leaked. */
export const SENTINEL_TOKEN = 'tok-SENTINEL-9f8e7d';

/** Retries that take milliseconds, so retry tests stay fast. */
export const FAST_RETRY = { baseDelayMs: 2, maxDelayMs: 10, maxRetryAfterMs: 20 };

export interface CapturedContext {
  ctx: CommandContext;
  /** Everything written to stderr so far (debug lines with --verbose). */
  stderr(): string;
}

export function capturedContext(env: Record<string, string | undefined>, verbose = true): CapturedContext {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  stdout.resume();
  const ctx = createContext(
    {
      stdout, stderr, stdin: Readable.from(['']), env, cwd: process.cwd(),
      stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false,
    },
    { color: false, verbose },
  );
  return { ctx, stderr: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs `action` and returns what it threw (failing the test when it did not throw). */
export async function thrownBy(action: () => unknown): Promise<Error> {
  try {
    await action();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`a non-Error was thrown: ${String(error)}`, { cause: error });
  }
  throw new Error('expected an error, but the call succeeded');
}

/** Every way an error or a log can be shown: message, stack, JSON, inspect (with causes). */
export function everyRendering(...values: unknown[]): string {
  return values
    .map((value) => {
      if (typeof value === 'string') return value;
      const error = value as Error;
      return [
        String(error?.message), String(error?.stack), JSON.stringify(value),
        inspect(value, { depth: Infinity, showHidden: true }),
      ].join('\n');
    })
    .join('\n');
}

export interface TinyServer {
  url: string;
  /** A PEM file that makes this server's certificate trusted. */
  caPath: string;
  /** Requests received, in order: "GET /api/v2/…". */
  requests: string[];
  /** Authorization headers received (to prove which token was sent). */
  authorizations: string[];
  /**
   * TCP connections accepted so far: one per attempt of a client whose requests time out (it
   * destroys the socket). Counted before the TLS handshake, which a loaded machine can stretch
   * past a short client timeout, so the request itself may never arrive.
   */
  connections(): number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A real HTTPS server on 127.0.0.1 with a fresh self-signed certificate, for answers the
 * emulator never gives. `certificateHost` is the name the certificate is issued for.
 */
export async function startTinyServer(handler: Handler, certificateHost = '127.0.0.1'): Promise<TinyServer> {
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(certificateHost);
  const pems = await generate([{ name: 'commonName', value: certificateHost }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [isIp ? { type: 7, ip: certificateHost } : { type: 2, value: certificateHost }] },
    ],
  });
  const dir = tempDir('botrules-api-test-');
  const caPath = join(dir, 'ca.pem');
  await writeFile(caPath, pems.cert);
  const requests: string[] = [];
  const authorizations: string[] = [];
  const server: HttpsServer = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    authorizations.push(req.headers.authorization ?? '');
    req.resume();
    req.on('end', () => handler(req, res));
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    caPath,
    requests,
    authorizations,
    connections: () => connections,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** A plain TCP listener that only counts connections: proof that nothing was sent. */
export async function startConnectionCounter(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server = createNetServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
