// The differential check of the plain-style reader (src/io/yaml-plain.ts) against the `yaml`
// package's Document: whatever text the reader accepts, the Document must read without an
// error, a warning or a repeated key, into a deeply equal value (0 and -0 told apart), and every
// path of the value (and one step beyond each, which the Document answers with the nearest
// ancestor) must be located at the same line and column, at the value and at the key.
import { isDeepStrictEqual } from 'node:util';
import { readPlainYaml } from '../../src/io/yaml-plain.js';
import { parseYamlText, type Path, type YamlSource } from '../../src/io/yaml-source.js';

export type Verdict = 'left to the Document' | 'same';

/** Compares the two readings of `text`; throws with the first difference. */
export function compareReadings(text: string): Verdict {
  const plain = readPlainYaml(text);
  if (plain === undefined) return 'left to the Document';
  const fast = parseYamlText(text, { displayPath: 'f.yaml' });
  const document = parseYamlText(text, { displayPath: 'f.yaml', keepDocument: true });
  const differ = (what: string): Error => new Error(`${what} differs for ${JSON.stringify(text)}`);
  if (document.problems.length > 0 || document.warnings.length > 0) throw differ(`the Document found ${JSON.stringify([...document.problems, ...document.warnings])}: acceptance`);
  if (!isDeepStrictEqual(fast.value, document.value) || !sameZeros(fast.value, document.value)) throw differ(`value ${JSON.stringify(fast.value)} / ${JSON.stringify(document.value)}:`);
  for (const path of pathsOf(document.value, [])) {
    for (const key of [false, true]) {
      if (!isDeepStrictEqual(fast.locate(path, { key }), document.locate(path, { key }))) {
        throw differ(`position of ${JSON.stringify(path)} (key ${key}): ${JSON.stringify(fast.locate(path, { key }))} / ${JSON.stringify(document.locate(path, { key }))}`);
      }
    }
  }
  return 'same';
}

/** Every path into `value`, with a missing key and a missing index below each mapping and list. */
function pathsOf(value: unknown, path: Path): Path[] {
  const below: Path[] = [path, [...path, 'missing'], [...path, 99]];
  if (Array.isArray(value)) return [...below, ...value.flatMap((item, i) => pathsOf(item, [...path, i]))];
  if (typeof value === 'object' && value !== null) return [...below, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, k]))];
  return below;
}

function sameZeros(a: unknown, b: unknown): boolean {
  return JSON.stringify(a, zeroes) === JSON.stringify(b, zeroes);
}

function zeroes(_key: string, v: unknown): unknown {
  return Object.is(v, -0) ? '-0' : v;
}

export type { YamlSource };
