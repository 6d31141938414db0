// JSON Pointers (RFC 6901), as ajv reports where a schema error is and as import --update
// writes its operations: one codec, fast-json-patch's, so "~1" and "~0" mean the same everywhere.
import jsonpatch from 'fast-json-patch';

/** A path into a document: mapping keys and list indexes. */
export type Path = readonly (string | number)[];

/** A JSON Pointer reference token for `key` (RFC 6901: "~" as "~0", "/" as "~1"). */
export function pointerToken(key: string | number): string {
  return jsonpatch.escapePathComponent(String(key));
}

/** "/rules/0/a~1b" → ["rules", "0", "a/b"]. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(jsonpatch.unescapePathComponent);
}

/** JSON Pointer segments → a path whose list indexes are numbers (decided by the data). */
export function resolvePath(segments: readonly string[], root: unknown): Path {
  const path: (string | number)[] = [];
  let node = root;
  for (const segment of segments) {
    const step = Array.isArray(node) ? Number(segment) : segment;
    path.push(step);
    node = childOf(node, step);
  }
  return path;
}

/** The value at `path` in `root`, or undefined when the path leads nowhere. */
export function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const step of path) node = childOf(node, step);
  return node;
}

/** `apps[0].steps[2].body`: a pointer as a reader of the file would write the path. */
export function readablePath(pointer: string): string {
  return readablePathOf(pointerSegments(pointer));
}

/** The same for a path already decoded. */
export function readablePathOf(path: Path): string {
  return path
    .map(String)
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

function childOf(node: unknown, step: string | number): unknown {
  if (Array.isArray(node)) return typeof step === 'number' || /^\d+$/.test(step) ? (node as unknown[])[Number(step)] : undefined;
  if (typeof node === 'object' && node !== null && Object.hasOwn(node, String(step))) return (node as Record<string, unknown>)[String(step)];
  return undefined;
}
