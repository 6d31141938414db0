// Every leaf's verdict on one field's value, as one key (docs/replay.md, "Engines": values with
// the same verdicts share a class). A field's distinct values are asked about every leaf on the
// field, and with many distinct values and many rules that is the JavaScript side's largest
// cost. Most leaves' verdicts on a present value are known from whether the value, or one of its
// prefixes or suffixes, is one of theirs: $eq, $ne, $in, $notIn (the value), $startsWith (a
// prefix), $endsWith, $notEndsWith (a suffix), $exists and $notExists (none). Those are looked
// up in maps per read value (a header, query or custom parameter by its name): a few lookups
// per value instead of one test per leaf. `$contains` leaves, and `$re` leaves whose patterns
// require a literal, are found by the texts the value holds (literal-index.ts); the rest
// (address ranges, other patterns) are asked. The key names only the leaves whose verdict is not
// the one they have where the value is absent: a few per value, however many leaves.
import { isAddressLeaf, leafTest, MATCH_WHEN_ABSENT, type PresentTest } from '../../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../../evaluate/request.js';
import { fieldName, firstValue, leafValues } from '../../semantics/fields.js';
import type { Leaf } from '../../semantics/model.js';
import type { ProgramLeaf } from '../../semantics/program.js';
import { leafTexts, LiteralIndex } from './literal-index.js';

/** A leaf's verdict: true, false or undecided (out of its time budget). */
export type Mark = 't' | 'f' | 'u';

/** The leaves that read the same value (the same condition type and name). */
interface LeafGroup {
  /** One of them, to read the value with. */
  reader: Leaf;
  /** The positions of the looked-up leaves whose verdict on a present value they do not list differs from the one where it is absent. */
  turnedWhenPresent: number[];
  /** For each text, the positions of the leaves whose verdict it turns over: the value itself, its prefixes, its suffixes. */
  listed: Map<string, number[]>;
  prefixes: Map<string, number[]>;
  suffixes: Map<string, number[]>;
  /** The lengths of the texts in `prefixes` and `suffixes`: a value's affixes of only these lengths are looked up. */
  prefixLengths: Set<number>;
  suffixLengths: Set<number>;
  /** The leaves asked (tested), and those of them found by their texts (made on the first value: patterns compile then). */
  asked: number[];
  found?: { index: LiteralIndex; always: number[]; indexed: number[] };
}

/** The operators looked up, with the verdict on a present value that no text of theirs turns over. */
const LOOKED_UP: ReadonlyMap<Leaf['operator'], Mark> = new Map<Leaf['operator'], Mark>([
  ['$eq', 'f'], ['$in', 'f'], ['$ne', 't'], ['$notIn', 't'], ['$startsWith', 'f'], ['$endsWith', 'f'], ['$notEndsWith', 't'], ['$exists', 't'], ['$notExists', 'f'],
]);

const SURROGATE = /[\ud800-\udfff]/;

export class FieldVerdicts {
  /** Per looked-up leaf, its verdict on a present value it does not list. */
  private readonly present: Mark[];
  /** The leaves by the name they read (every leaf here reads the same field). */
  private readonly groups = new Map<string, LeafGroup>();
  /** Every leaf's verdict where its value is absent. */
  private readonly absentMarks: Mark[];
  private readonly tests: (PresentTest | undefined)[] = [];

  constructor(private readonly leaves: readonly ProgramLeaf[]) {
    this.absentMarks = leaves.map(({ leaf }) => (MATCH_WHEN_ABSENT.has(leaf.operator) ? 't' : 'f'));
    this.present = leaves.map(({ leaf }, at) => {
      const group = this.groupOf(leaf);
      // The leaves classOf asks without options: values compared as written, never folded.
      const mark = LOOKED_UP.get(leaf.operator);
      if (mark === undefined || isAddressLeaf(leaf)) {
        group.asked.push(at);
        return 'f';
      }
      if (mark !== this.absentMarks[at]) group.turnedWhenPresent.push(at);
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
  }

  /** A key of every leaf's verdict on the request part: equal for two parts exactly when their verdicts are. */
  key(part: TestRequest): string {
    return this.keyOf(this.changes(part));
  }

  /** The key of the verdicts `changes` found. */
  keyOf(changes: ReadonlyMap<number, Mark>): string {
    const changed = [...changes].filter(([at, mark]) => mark !== this.absentMarks[at]).sort((a, b) => a[0] - b[0]);
    return changed.map(([at, mark]) => `${at}${mark}`).join(',');
  }

  /** Each leaf's verdict on the request part, one letter per leaf in the leaves' order (t, f, u). */
  marks(part: TestRequest): string {
    const marks = [...this.absentMarks];
    for (const [at, mark] of this.changes(part)) marks[at] = mark;
    return marks.join('');
  }

  /** The verdicts that may differ from the ones where the value is absent (the others are those), by the leaves' places. */
  changes(part: TestRequest): Map<number, Mark> {
    const marks = new Map<number, Mark>();
    for (const [group, value] of this.readValues(part)) {
      for (const at of group.turnedWhenPresent) marks.set(at, this.present[at] as Mark);
      const turn = (positions: number[] | undefined) => {
        for (const at of positions ?? []) marks.set(at, (marks.get(at) ?? this.present[at]) === 't' ? 'f' : 't');
      };
      turn(group.listed.get(value));
      // The prefixes and suffixes of the leaves' lengths, the empty text and the whole value
      // included (startsWith and endsWith hold for both): a few lookups however long the value
      // (a log's line may carry a text of 256 KiB; every length of it would hash it whole each time).
      for (const length of group.prefixLengths) if (length <= value.length) turn(group.prefixes.get(value.slice(0, length)));
      for (const length of group.suffixLengths) if (length <= value.length) turn(group.suffixes.get(value.slice(value.length - length)));
      if (group.asked.length > 0) this.ask(group, value, marks);
    }
    return marks;
  }

  /** The asked leaves' verdicts on a present value: those found by their texts only where the value holds one. */
  private ask(group: LeafGroup, value: string, marks: Map<number, Mark>): void {
    const found = group.found ?? this.prepare(group);
    const verdict = (at: number) => {
      const answer = this.testOf(at)(value);
      marks.set(at, answer === 'undecided' ? 'u' : answer ? 't' : 'f');
    };
    // A text with surrogate code units runs on V8 under its time budget (pattern.ts): every leaf is asked.
    if (found.indexed.length > 0 && SURROGATE.test(value)) {
      for (const at of group.asked) verdict(at);
      return;
    }
    for (const at of found.always) verdict(at);
    // Not holding its texts: `false`, as where the value is absent (nothing to record).
    found.index.holders(value, (at) => {
      if (!marks.has(at)) verdict(at);
    });
  }

  private prepare(group: LeafGroup): NonNullable<LeafGroup['found']> {
    const found = { index: new LiteralIndex(), always: [] as number[], indexed: [] as number[] };
    for (const at of group.asked) {
      const { leaf } = this.leaves[at] as ProgramLeaf;
      const texts = isAddressLeaf(leaf) ? undefined : leafTexts(leaf);
      if (texts === undefined) found.always.push(at);
      else {
        found.indexed.push(at);
        for (const text of texts) found.index.add(text, at);
      }
    }
    group.found = found;
    return found;
  }

  private testOf(at: number): PresentTest {
    let test = this.tests[at];
    if (test === undefined) this.tests[at] = test = leafTest((this.leaves[at] as ProgramLeaf).leaf);
    return test;
  }

  /**
   * The groups whose value the part carries, with it. A map's keys are read once each (the first
   * of a header's spellings, as the evaluator's fieldOf reads it), not each group's name looked
   * for: a field with many names' leaves and few names per request.
   */
  private *readValues(part: TestRequest): Iterable<[LeafGroup, string]> {
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
  private textsOf(leaf: Leaf, group: LeafGroup): [Map<string, number[]> | undefined, readonly string[]] {
    switch (leaf.operator) {
      case '$eq': case '$ne': return [group.listed, [firstValue(leaf)]];
      case '$in': case '$notIn': return [group.listed, leafValues(leaf)];
      case '$startsWith': return [group.prefixes, [firstValue(leaf)]];
      case '$endsWith': case '$notEndsWith': return [group.suffixes, [firstValue(leaf)]];
      default: return [undefined, []];
    }
  }

  private groupOf(leaf: Leaf): LeafGroup {
    // Header names compare ignoring case (semantics/fields.ts sameFieldName): one group per name.
    const name = leaf.conditionType === 'header' ? fieldName(leaf).toLowerCase() : fieldName(leaf);
    let group = this.groups.get(name);
    if (group === undefined) {
      group = { reader: leaf, turnedWhenPresent: [], listed: new Map(), prefixes: new Map(), suffixes: new Map(), prefixLengths: new Set(), suffixLengths: new Set(), asked: [] };
      this.groups.set(name, group);
    }
    return group;
  }
}
