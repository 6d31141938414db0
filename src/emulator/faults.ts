// Fault injection for tests, benchmarks and demos. A fault spec is comma-separated:
//   status=503,retry-after=1,method=GET,path=/v1/scripts,times=2
//   drop,method=PATCH,rate=0.1
//   status=500                      (every request, forever)
// Exactly one effect: `status=CODE` (an error answer, optionally with `retry-after=SECONDS`)
// or `drop` (the connection is destroyed without an answer). Filters: `method=`, `path=`
// (a path prefix, e.g. /api/v2/botProtection/customRules). Limits: `times=N` (fires N times,
// then stays quiet), `after=N` (lets the first N matching requests through), `rate=P`
// (fires with probability P, drawn from the emulator's seeded generator).
import { UserError } from '../errors.js';
import type { Random } from './random.js';

export interface FaultSpec {
  /** The source text, for logs and messages. */
  text: string;
  effect: { kind: 'status'; status: number; retryAfter?: number } | { kind: 'drop' };
  method?: string;
  path?: string;
  times?: number;
  after?: number;
  rate?: number;
}

const SYNTAX = 'a fault is "status=CODE[,retry-after=S]" or "drop", then optional method=M, path=/prefix, times=N, after=N, rate=P';

export function parseFault(text: string): FaultSpec {
  const fail = (why: string): never => {
    throw new UserError(`invalid fault "${text}": ${why}`, [`Syntax: ${SYNTAX}`]);
  };
  const fields = new Map<string, string>();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') fail('empty item');
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).toLowerCase();
    if (fields.has(key)) fail(`"${key}" given twice`);
    fields.set(key, eq < 0 ? '' : part.slice(eq + 1));
  }
  const status = fields.get('status');
  const drop = fields.has('drop');
  if ((status === undefined) === !drop) fail('give exactly one of status=CODE or drop');
  if (drop && fields.get('drop') !== '') fail('drop takes no value');
  const spec: FaultSpec = { text, effect: drop ? { kind: 'drop' } : { kind: 'status', status: statusCode(status ?? '', fail) } };
  for (const [key, value] of fields) {
    switch (key) {
      case 'status':
      case 'drop':
        break;
      case 'retry-after':
        if (spec.effect.kind !== 'status') fail('retry-after goes with status=CODE');
        else spec.effect.retryAfter = count(value, key, fail);
        break;
      case 'method':
        if (!/^[A-Za-z]+$/.test(value)) fail('method must be an HTTP method such as GET or PATCH');
        spec.method = value.toUpperCase();
        break;
      case 'path':
        if (!value.startsWith('/')) fail('path must start with /');
        spec.path = value;
        break;
      case 'times':
      case 'after':
        spec[key] = count(value, key, fail);
        break;
      case 'rate':
        spec.rate = probability(value, fail);
        break;
      default:
        fail(`unknown item "${key}"`);
    }
  }
  return spec;
}

function statusCode(value: string, fail: (why: string) => never): number {
  const code = Number(value);
  if (!/^\d{3}$/.test(value) || code < 400 || code > 599) fail('status must be an HTTP error code (400-599)');
  return code;
}

function count(value: string, key: string, fail: (why: string) => never): number {
  if (!/^\d+$/.test(value)) fail(`${key} must be a whole number`);
  return Number(value);
}

function probability(value: string, fail: (why: string) => never): number {
  const p = Number(value);
  if (value === '' || !Number.isFinite(p) || p < 0 || p > 1) fail('rate must be a number between 0 and 1');
  return p;
}

interface ActiveFault {
  spec: FaultSpec;
  /** Matching requests seen so far (for `after`). */
  seen: number;
  /** Times this fault fired (for `times`). */
  fired: number;
}

/** The faults in force; the first one that matches a request and decides to fire wins. */
export class FaultSet {
  private faults: ActiveFault[] = [];

  constructor(private readonly random: Random) {}

  add(spec: string | FaultSpec): FaultSpec {
    const parsed = typeof spec === 'string' ? parseFault(spec) : spec;
    this.faults.push({ spec: parsed, seen: 0, fired: 0 });
    return parsed;
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault to inject into this request, if any (and counts it as fired). */
  pick(method: string, path: string): FaultSpec | undefined {
    for (const fault of this.faults) {
      const { spec } = fault;
      if (spec.method !== undefined && spec.method !== method) continue;
      if (spec.path !== undefined && !path.startsWith(spec.path)) continue;
      fault.seen += 1;
      if (spec.after !== undefined && fault.seen <= spec.after) continue;
      if (spec.times !== undefined && fault.fired >= spec.times) continue;
      if (spec.rate !== undefined && this.random() >= spec.rate) continue;
      fault.fired += 1;
      return spec;
    }
    return undefined;
  }
}
