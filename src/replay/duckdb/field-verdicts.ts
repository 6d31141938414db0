// Every leaf's verdict on one field's value, as one key (docs/replay.md, "Engines": values with
// the same verdicts share a class). A field's distinct values are asked about every leaf on the
// field, and with many distinct values and many rules that is the JavaScript side's largest
// cost. Most leaves' verdicts on a present value are known from whether the value, or one of its
// prefixes or suffixes, is one of theirs: $eq, $ne, $in, $notIn (the value), $startsWith (a
// prefix), $endsWith, $notEndsWith (a suffix), $exists and $notExists (none). Those are looked
// up in maps per read value (a header, query or custom parameter by its name): a few lookups
// per value instead of one test per leaf. The rest ($contains, $re, address ranges) ask
// leafVerdict.
import { isAddressLeaf, leafVerdict, MATCH_WHEN_ABSENT } from '../../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../../evaluate/request.js';
import { fieldName, firstValue, leafValues } from '../../semantics/fields.js';
import type { Leaf } from '../../semantics/model.js';
import type { ProgramLeaf } from '../../semantics/program.js';

type Mark = 't' | 'f' | 'u';

/** The looked-up leaves that read the same value (the same condition type and name). */
interface LookedUpGroup {
  /** One of them, to read the value with. */
  reader: Leaf;
  /** Their positions and their verdicts where the value is absent. */
  absent: [number, Mark][];
  /** For each text, the positions of the leaves whose verdict it turns over: the value itself, its prefixes, its suffixes. */
  listed: Map<string, number[]>;
  prefixes: Map<string, number[]>;
  suffixes: Map<string, number[]>;
  /** The lengths of the texts in `prefixes` and `suffixes`: a value's affixes of only these lengths are looked up. */
  prefixLengths: Set<number>;
  suffixLengths: Set<number>;
}

/** The operators looked up, with the verdict on a present value that no text of theirs turns over. */
const LOOKED_UP: ReadonlyMap<Leaf['operator'], Mark> = new Map<Leaf['operator'], Mark>([
  ['$eq', 'f'], ['$in', 'f'], ['$ne', 't'], ['$notIn', 't'], ['$startsWith', 'f'], ['$endsWith', 'f'], ['$notEndsWith', 't'], ['$exists', 't'], ['$notExists', 'f'],
]);

export class FieldVerdicts {
  /** Per leaf, its verdict on a present value it does not list (exact leaves; the rest are asked). */
  private readonly present: Mark[];
  /** The looked-up leaves by the name they read (every leaf here reads the same field). */
  private readonly groups = new Map<string, LookedUpGroup>();
  /** `present` with every looked-up leaf's verdict where its value is absent. */
  private readonly absentMarks: Mark[];
  private readonly asked: number[] = [];

  constructor(private readonly leaves: readonly ProgramLeaf[]) {
    this.present = leaves.map(({ leaf }, at) => {
      // The leaves classOf asks without options: values compared as written, never folded.
      const mark = LOOKED_UP.get(leaf.operator);
      if (mark === undefined || isAddressLeaf(leaf)) {
        this.asked.push(at);
        return 'f';
      }
      const group = this.groupOf(leaf);
      group.absent.push([at, MATCH_WHEN_ABSENT.has(leaf.operator) ? 't' : 'f']);
      const [map, texts] = this.textsOf(leaf, group);
      // A text listed twice turns the verdict over once.
      for (const text of new Set(texts)) {
        const positions = map?.get(text);
        if (positions === undefined) map?.set(text, [at]);
        else positions.push(at);
        if (map === group.prefixes) group.prefixLengths.add(text.length);
        if (map === group.suffixes) group.suffixLengths.add(text.length);
      }
      return mark;
    });
    this.absentMarks = [...this.present];
    for (const { absent } of this.groups.values()) for (const [at, mark] of absent) this.absentMarks[at] = mark;
  }

  /** Each leaf's verdict on the request part, one letter per leaf in the leaves' order (t, f, u). */
  key(part: TestRequest): string {
    const marks = [...this.absentMarks];
    for (const [{ absent, listed, prefixes, suffixes, prefixLengths, suffixLengths }, value] of this.readValues(part)) {
      for (const [at] of absent) marks[at] = this.present[at] as Mark;
      const turn = (positions: number[] | undefined) => {
        for (const at of positions ?? []) marks[at] = marks[at] === 't' ? 'f' : 't';
      };
      turn(listed.get(value));
      // The prefixes and suffixes of the leaves' lengths, the empty text and the whole value
      // included (startsWith and endsWith hold for both): a few lookups however long the value
      // (a log's line may carry a text of 256 KiB; every length of it would hash it whole each time).
      for (const length of prefixLengths) if (length <= value.length) turn(prefixes.get(value.slice(0, length)));
      for (const length of suffixLengths) if (length <= value.length) turn(suffixes.get(value.slice(value.length - length)));
    }
    for (const at of this.asked) {
      const verdict = leafVerdict((this.leaves[at] as ProgramLeaf).leaf, part);
      marks[at] = verdict === 'undecided' ? 'u' : verdict ? 't' : 'f';
    }
    return marks.join('');
  }

  /**
   * The groups whose value the part carries, with it. A map's keys are read once each (the first
   * of a header's spellings, as the evaluator's fieldOf reads it), not each group's name looked
   * for: a field with many names' leaves and few names per request.
   */
  private *readValues(part: TestRequest): Iterable<[LookedUpGroup, string]> {
    const field = this.leaves[0]?.field;
    if (field !== 'headers' && field !== 'query' && field !== 'custom') {
      for (const group of this.groups.values()) {
        const value = fieldOf(part, group.reader);
        if (value !== undefined) yield [group, value];
      }
      return;
    }
    const record = part[field];
    if (record === undefined) return;
    const seen = new Set<string>();
    for (const key of Object.keys(record)) {
      const name = field === 'headers' ? key.toLowerCase() : key;
      if (seen.has(name)) continue;
      seen.add(name);
      const group = this.groups.get(name);
      if (group !== undefined) yield [group, record[key] as string];
    }
  }

  /** The map a leaf's texts go in, and its texts. */
  private textsOf(leaf: Leaf, group: LookedUpGroup): [Map<string, number[]> | undefined, readonly string[]] {
    switch (leaf.operator) {
      case '$eq': case '$ne': return [group.listed, [firstValue(leaf)]];
      case '$in': case '$notIn': return [group.listed, leafValues(leaf)];
      case '$startsWith': return [group.prefixes, [firstValue(leaf)]];
      case '$endsWith': case '$notEndsWith': return [group.suffixes, [firstValue(leaf)]];
      default: return [undefined, []];
    }
  }

  private groupOf(leaf: Leaf): LookedUpGroup {
    // Header names compare ignoring case (semantics/fields.ts sameFieldName): one group per name.
    const name = leaf.conditionType === 'header' ? fieldName(leaf).toLowerCase() : fieldName(leaf);
    let group = this.groups.get(name);
    if (group === undefined) this.groups.set(name, (group = { reader: leaf, absent: [], listed: new Map(), prefixes: new Map(), suffixes: new Map(), prefixLengths: new Set(), suffixLengths: new Set() }));
    return group;
  }
}
