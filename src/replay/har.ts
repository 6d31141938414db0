// HTTP Archive files (docs/replay.md, "Log formats"): one JSON document whose `log.entries`
// are the requests a browser or proxy recorded, with full headers, query and cookies. A HAR is
// read whole (capped), so its "line" in the report is the entry's number, 1 for the first.
import type { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { jsonTooDeep } from '../io/json-depth.js';
import { parseYamlDocument } from '../io/yaml-source.js';
import type { TestRequest } from '../evaluate/request.js';
import type { Carriage } from './coverage.js';
import { splitUrl } from './redact.js';

/** The largest HAR read (decompressed bytes); a recording of real traffic is far smaller. */
const MAX_HAR_BYTES = 256 * 1024 * 1024;

/**
 * The deepest nesting a HAR may have. Browsers nest a dozen levels, and an initiator's async
 * stack (`_initiator.stack.parent…`) at most DevTools' 32 frames more; a truncated file nesting
 * millions of brackets made the error's position finder take gigabytes and abort the process.
 */
const MAX_HAR_DEPTH = 256;

/** Text up to this size may be read a second time (as YAML) to say where its JSON breaks. */
const MAX_REREAD_CHARS = 1024 * 1024;

/** Whether a file's first line starts a HAR document (pretty-printed `{`, or `{"log":`). */
export function isHarStart(line: string): boolean {
  const start = line.trim();
  return start === '{' || /^\{\s*"log"\s*:\s*\{/.test(start);
}

export type HarEntry = { request: TestRequest; carriage: Carriage } | { skip: string };

/** A HAR records every header but no custom parameter (those are the enforcer's). */
const HAR_CARRIAGE: Carriage = { noCustom: true };

/** The entries of a HAR stream as requests; a stream that is not a HAR document is an error naming the file and where. */
export async function readHarEntries(stream: Readable, file: string): Promise<HarEntry[]> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_HAR_BYTES) throw new UserError(`${file}: a HAR file larger than ${MAX_HAR_BYTES / 1024 / 1024} MiB is not read (export fewer entries, or without response bodies)`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const deep = jsonTooDeep(text, MAX_HAR_DEPTH);
  if (deep !== undefined) throw new UserError(`${file}:${deep.line}:${deep.col}: not a HAR file: it ${deep.message.replace('no file botrules writes', 'no browser recording')}`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const { line, col } = positionOf(text, error);
    throw new UserError(`${file}:${line}:${col}: not a HAR file: not JSON`);
  }
  const entries = (document as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new UserError(`${file}:1:1: not a HAR file: it has no log.entries list`);
  return entries.map(harEntry);
}

/**
 * Where JSON.parse stopped. V8 names a position in some messages only (`at position N`); at an
 * unexpected end, the end of the text; else, for a text of at most 1 MiB, the YAML parser (JSON
 * is YAML) says where the syntax breaks (reading a larger one again as YAML took minutes and
 * gigabytes); else the file's start.
 */
function positionOf(text: string, error: unknown): { line: number; col: number } {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message);
  if (position !== null) return lineAndColumnAt(text, Number(position[1]));
  if (/end of JSON input/.test(message)) return lineAndColumnAt(text, text.length);
  if (text.length > MAX_REREAD_CHARS) return { line: 1, col: 1 };
  const { document, lineCounter } = parseYamlDocument(text);
  const offset = document.errors[0]?.pos[0];
  return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
}

function lineAndColumnAt(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, col: before.length - before.lastIndexOf('\n') };
}

interface NameValue {
  name: string;
  value: string;
}

function nameValues(value: unknown): NameValue[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const pairs: NameValue[] = [];
  for (const item of value) {
    const { name, value: text } = (item ?? {}) as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || typeof text !== 'string') return undefined;
    pairs.push({ name, value: text });
  }
  return pairs;
}

/**
 * An entry's request: `method`, `url` (domain, path and query), `headers` (all of them; the
 * User-Agent also as the field, HTTP/2's `:authority` as the host), `queryString` and `cookies`
 * (as the Cookie header, masked). A HAR records the server's address, not the client's: no `ip`.
 */
export function harEntry(entry: unknown): HarEntry {
  const request = (entry as { request?: unknown } | null)?.request as { method?: unknown; url?: unknown; headers?: unknown; queryString?: unknown; cookies?: unknown } | undefined;
  if (typeof request !== 'object' || request === null || typeof request.url !== 'string') return { skip: 'HAR entry without a request URL' };
  const headers = nameValues(request.headers);
  const query = nameValues(request.queryString);
  const cookies = nameValues(request.cookies);
  if (headers === undefined || query === undefined || cookies === undefined) return { skip: 'HAR entry whose headers, queryString or cookies are not name/value lists' };
  const url = splitUrl(request.url);
  const read: TestRequest = { path: url.path, headers: Object.create(null) as Record<string, string> };
  if (typeof request.method === 'string') read.method = request.method;
  const headerMap = read.headers as Record<string, string>;
  for (const { name, value } of headers) {
    const key = name.toLowerCase() === ':authority' ? 'host' : name.toLowerCase();
    headerMap[key] = key in headerMap ? `${headerMap[key]}, ${value}` : value;
  }
  if (cookies.length > 0 && headerMap.cookie === undefined) headerMap.cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  const agent = headerMap['user-agent'];
  if (agent !== undefined) read.userAgent = agent;
  const domain = url.domain ?? headerMap.host?.replace(/:\d+$/, '').toLowerCase();
  if (domain !== undefined) read.domain = domain;
  const params = url.query ?? (Object.create(null) as Record<string, string>);
  for (const { name, value } of query) if (!Object.prototype.hasOwnProperty.call(params, name)) params[name] = value;
  if (Object.keys(params).length > 0 || url.query !== undefined) read.query = params;
  return { request: read, carriage: HAR_CARRIAGE };
}
