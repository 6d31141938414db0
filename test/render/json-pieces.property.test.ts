// The plan JSON written in pieces (src/render/json-pieces.ts) against JSON.stringify(value,
// null, 2): the pieces joined are its very text for any JSON value, with the values JSON cannot
// hold (undefined, functions) left out or written as null where JSON.stringify does so, objects
// with toJSON and objects of other kinds written as it writes them; a large document comes in
// pieces of bounded size. The property counts how often it compares deep documents.
import fc from 'fast-check';
import { writeIndentedJson } from '../../src/render/json-pieces.js';

/** JSON values, with what JSON cannot hold mixed in where JSON.stringify drops it or writes null. */
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(undefined, () => 1, new Date(0), new Map([[1, 2]]), { toJSON: () => 'by toJSON' }, 'line\nbreak \u2028 "quoted"'),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 5 }),
  ),
}));

function pieces(value: unknown): string[] {
  const written: string[] = [];
  writeIndentedJson(value, (piece) => written.push(piece));
  return written;
}

describe('the plan JSON written in pieces', () => {
  it("joined, is JSON.stringify's text with two spaces, for any value", () => {
    let deep = 0;
    fc.assert(
      fc.property(values.value, (value) => {
        // A top-level undefined has no JSON text: the plan document is always an object.
        fc.pre(value !== undefined && typeof value !== 'function');
        const text = JSON.stringify(value, null, 2);
        expect(pieces(value).join('')).toBe(text);
        if (/\n {8}/.test(text)) deep += 1;
      }),
      { numRuns: 1000 },
    );
    expect(deep).toBeGreaterThan(50);
  });

  it('writes a large document in pieces of bounded size, each a run of whole values', () => {
    const document = { apps: [{ classes: Array.from({ length: 20_000 }, (_, i) => ({ requests: `path starting "/p${i}"`, outcomes: [{ rule: `r${i}` }, { rule: undefined }] })) }] };
    const written = pieces(document);
    expect(written.join('')).toBe(JSON.stringify(document, null, 2));
    expect(written.length).toBeGreaterThan(20);
    expect(Math.max(...written.map((piece) => piece.length))).toBeLessThan(70_000);
  });
});
