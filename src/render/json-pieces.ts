// JSON.stringify(value, null, 2), written in pieces. A plan of thousands of rules with its
// behaviour diff is megabytes of JSON: made as one string, then its copy made safe for a terminal,
// then the bytes written, it was the largest thing the plan held at its very end, when the heap
// is fullest (docs/behaviour.md, "Plan format"). Arrays and plain objects near the top are walked
// here; each value below them is JSON.stringify's own text, indented where it stands.

/** Levels walked here; below, a value is small (a step, a class of requests) and stringified whole. */
const WALKED_LEVELS = 4;
/** Characters gathered before they are written. */
const PIECE = 1 << 16;

export function writeIndentedJson(value: unknown, write: (text: string) => void): void {
  const pieces = new Pieces(write);
  writeValue(value, '', 0, pieces);
  pieces.flush();
}

function writeValue(value: unknown, indent: string, level: number, pieces: Pieces): void {
  if (level >= WALKED_LEVELS || !walkable(value)) {
    const text = JSON.stringify(value, null, 2);
    pieces.add(indent === '' ? text : text.replaceAll('\n', `\n${indent}`));
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return pieces.add('[]');
    value.forEach((item: unknown, at) => {
      pieces.add(`${at === 0 ? '[' : ','}\n${inner}`);
      // As JSON.stringify writes what JSON cannot hold in an array.
      writeValue(written(item) ? item : null, inner, level + 1, pieces);
    });
    return pieces.add(`\n${indent}]`);
  }
  const entries = Object.entries(value).filter(([, item]) => written(item));
  if (entries.length === 0) return pieces.add('{}');
  entries.forEach(([key, item], at) => {
    pieces.add(`${at === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `);
    writeValue(item, inner, level + 1, pieces);
  });
  pieces.add(`\n${indent}}`);
}

/** An array, or an object of Object's own kind with no toJSON: JSON.stringify would walk it the same way. */
function walkable(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object' || 'toJSON' in value) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** What JSON.stringify writes as an object's property (it leaves these out). */
function written(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

class Pieces {
  private gathered: string[] = [];
  private size = 0;

  constructor(private readonly write: (text: string) => void) {}

  add(text: string): void {
    this.gathered.push(text);
    this.size += text.length;
    if (this.size >= PIECE) this.flush();
  }

  flush(): void {
    if (this.size > 0) this.write(this.gathered.join(''));
    this.gathered = [];
    this.size = 0;
  }
}
