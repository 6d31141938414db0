// The search's set-up in proportion to each PATCH (src/diff/list-delta.ts, part-lists.ts):
// changedParts and activeEntries work out a list's numbers, parts and entries from the list
// before it, for the rules between the two lists' common start and end only. Neither may change
// an answer: for random runs of states (one rule moved, edited, paused, created or deleted at a
// time, a rule twice in a list, a state repeated, a list copied, a fresh list in between), both give exactly what the
// walk over every whole list gave (test/diff/reference/). The runs that reach the shortcut (a
// list changed between a common start and end; a rule moved past others, whose rules in between
// are copied as one run) and that split the lists into parts are counted,
// so the property cannot pass without them. Given as a walk (the transition check's states,
// read one at a time and built again on each read), the lists give exactly what the arrays give,
// even when the walk empties every list but the last two it gave: nothing holds more.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { AtomTable } from '../../src/diff/atoms.js';
import { changedParts } from '../../src/diff/changed-parts.js';
import { activeEntries, type Entries, type Entry, type RegionOutcome } from '../../src/diff/entries.js';
import { activeAfter, commonEnds, IdsAlong, joinedIds, type WalkedLists } from '../../src/diff/list-delta.js';
import { regionsWhere } from '../../src/diff/regions.js';
import type { Action, Leaf, NormalRule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';
import { changedPartsWalked } from './reference/changed-parts-walk.js';
import { activeEntriesWalked, type WalkedEntries } from './reference/entries-walk.js';

const HOSTS = ['a.example', 'b.example', 'c.example', 'd.example'];
const ACTIONS: Action[][] = [['allow'], ['hardBlock'], ['blockWithChallenge']];

const leaf: fc.Arbitrary<Leaf | undefined> = fc.oneof(
  fc.constantFrom(...HOSTS).map((host): Leaf => ({ conditionType: 'domain', operator: '$eq', value: host })),
  fc.subarray(HOSTS, { minLength: 1, maxLength: 2 }).map((hosts): Leaf => ({ conditionType: 'domain', operator: '$in', value: hosts })),
  fc.constant(undefined),
);

const rule = (name: string): fc.Arbitrary<NormalRule> =>
  fc.record({ host: leaf, path: fc.constantFrom('/a', '/b', '/c'), actions: fc.constantFrom(...ACTIONS), paused: fc.boolean() }).map(({ host, path, actions, paused }) =>
    normal({
      name,
      description: '',
      status: paused && name.endsWith('3') ? 'paused' : 'active',
      actions,
      conditions: { operator: '$and', children: [...(host === undefined ? [] : [{ operator: '$and' as const, children: [host] }]), { operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: path }] }] },
    }),
  );

/** What one step does to the list before: a PATCH of one rule, or something no PATCH does. */
const step = fc.record({
  kind: fc.constantFrom('move', 'move', 'edit', 'pause', 'create', 'delete', 'twin', 'repeat', 'copy', 'fresh'),
  from: fc.nat(),
  to: fc.nat(),
  fresh: rule('new'),
  actions: fc.constantFrom(...ACTIONS),
});

/** A start list and the lists after each step, sharing the rule objects no step changed. */
const runs = fc.integer({ min: 3, max: 12 }).chain((n) =>
  fc.tuple(fc.tuple(...Array.from({ length: n }, (_, i) => rule(`r${i}`))), fc.array(step, { minLength: 1, maxLength: 10 })).map(([start, steps]) => {
    const lists: NormalRule[][] = [start];
    steps.forEach((s, index) => {
      const before = lists[lists.length - 1] as NormalRule[];
      const list = [...before];
      const from = s.from % Math.max(1, list.length);
      const to = s.to % Math.max(1, list.length);
      const at = list[from];
      if (s.kind === 'repeat') return lists.push(lists[s.from % lists.length] as NormalRule[]);
      if (s.kind === 'fresh') return lists.push(start.map((r) => ({ ...r })).reverse());
      if (s.kind === 'create') list.splice(to, 0, { ...s.fresh, name: `new ${index}` });
      else if (at !== undefined && s.kind === 'delete') list.splice(from, 1);
      else if (at !== undefined && s.kind === 'twin') list.splice(to, 0, { ...at });
      else if (at !== undefined && s.kind === 'move') list.splice(to, 0, ...list.splice(from, 1));
      else if (at !== undefined && s.kind === 'edit') list[from] = { ...at, actions: s.actions };
      else if (at !== undefined && s.kind === 'pause') list[from] = { ...at, status: at.status === 'active' ? 'paused' : 'active' };
      return lists.push(list);
    });
    return lists;
  }),
);

const blocks = (outcome: RegionOutcome | undefined) => outcome !== undefined && 'actions' in outcome && outcome.actions.some((action) => action !== 'allow');
/** The transition check's kind of question: first and last block, some list in between does not. */
const window = (outcomes: readonly RegionOutcome[]) => blocks(outcomes[0]) && blocks(outcomes[outcomes.length - 1]) && outcomes.slice(1, -1).some((o) => !blocks(o));

/** The entries of each list, read through their numbers. */
function walkedShape(entries: Entries): WalkedEntries {
  const { lists, entries: byNumber, idOf, ...rest } = entries;
  // The ids by number are those of the entries.
  expect([...idOf]).toEqual(byNumber.map((entry) => entry.id));
  return { ...rest, sets: lists.map((numbers) => Array.from(numbers, (n) => byNumber[n] as Entry)) };
}

/** Entries as numbers, outcomes and rule objects' names (the same rule objects either way). */
function sameStart(before: Int32Array, after: Int32Array): number {
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same += 1;
  return same;
}

function shown(given: Entries | WalkedEntries, table: AtomTable) {
  const entries = 'lists' in given ? walkedShape(given) : given;
  return {
    sets: entries.sets.map((set) => set.map((entry) => [entry.rule.name, entry.conditionsId, entry.id, entry.outcome, (entry as { boring?: boolean }).boring])),
    sharedTail: entries.sharedTail,
    boringFrom: entries.boringFrom,
    conditionsCount: entries.conditionsCount,
    // Each list's start shared with the list before, as the numbered entries say: never more than it shares.
    sharedHeadsHold: !('lists' in given) || given.sharedHead.every((head, i) => (i === 0 ? head === 0 : head <= sameStart(given.lists[i - 1] as Int32Array, given.lists[i] as Int32Array))),
    atoms: table.atoms.map((atom) => [atom.id, atom.field, [...atom.rules]]),
    trees: entries.trees.map(({ all, groups }) => [all, groups.map((group) => [group.all, group.atoms.map((atom) => atom.id)])]),
  };
}

/** One rule moved past two or more others (the rules it passes are copied as a run of the list before). */
function movedOverTwo(before: readonly NormalRule[], after: readonly NormalRule[]): boolean {
  const { start, end } = commonEnds(before, after);
  const [middleBefore, middleAfter] = [before.slice(start, before.length - end), after.slice(start, after.length - end)];
  if (middleBefore.length !== middleAfter.length || middleAfter.length < 3) return false;
  const same = (a: readonly NormalRule[], b: readonly NormalRule[]) => a.every((rule, i) => rule === b[i]);
  return same(middleBefore.slice(1), middleAfter.slice(0, -1)) || same(middleBefore.slice(0, -1), middleAfter.slice(1));
}

describe('numbers, parts and entries from the list before', () => {
  test('are those of the walk over every whole list', () => {
    let shortcuts = 0;
    let moves = 0;
    let twins = 0;
    let split = 0;
    fc.assert(
      fc.property(runs, (lists) => {
        const parts = changedParts(lists, window);
        expect(parts).toEqual(changedPartsWalked(lists, window));
        if (Array.isArray(parts)) split += 1;
        const [tableA, tableB] = [new AtomTable(), new AtomTable()];
        expect(shown(activeEntries(lists, tableA, window), tableA)).toEqual(shown(activeEntriesWalked(lists, tableB, window), tableB));
        // The lists of each part are what the search is given: the same rule objects, not copies.
        for (const part of Array.isArray(parts) ? parts : []) part.lists.flat().forEach((r) => expect(lists.some((list) => list.includes(r))).toBe(true));
        if (lists.some((list, i) => i > 0 && list !== lists[i - 1] && commonEnds(lists[i - 1] as NormalRule[], list).start + commonEnds(lists[i - 1] as NormalRule[], list).end > 0)) shortcuts += 1;
        if (lists.some((list, i) => i > 0 && movedOverTwo(lists[i - 1] as NormalRule[], list))) moves += 1;
        if (lists.some((list) => new Set(list.map((r) => r.name)).size < list.length)) twins += 1;
      }),
      { numRuns: 600 },
    );
    expect(shortcuts).toBeGreaterThan(300);
    expect(moves).toBeGreaterThan(100);
    expect(twins).toBeGreaterThan(100);
    expect(split).toBeGreaterThan(60);
  });
});

/**
 * `lists` as a walk: each read copies them anew (a list that is the very array of the one
 * before stays one array) and empties each copy once the walk is two lists past it, so an
 * answer that needs a list read earlier changes. Counts the reads.
 */
function walked(lists: readonly NormalRule[][]): { walk: WalkedLists; reads: () => number } {
  let reads = 0;
  const walk: WalkedLists = {
    length: lists.length,
    *lists() {
      reads += 1;
      const given: NormalRule[][] = [];
      for (const [index, list] of lists.entries()) {
        const copy = list === lists[index - 1] ? (given[given.length - 1] as NormalRule[]) : list.slice();
        if (copy !== given[given.length - 1]) given.push(copy);
        // Emptied two lists later: the one before is the most the readers may keep.
        if (given.length > 2) (given[given.length - 3] as NormalRule[]).length = 0;
        yield copy;
      }
    },
  };
  return { walk, reads: () => reads };
}

describe('the lists given as a walk', () => {
  test('give the numbers, parts, entries and regions of the arrays, the walk read list by list', () => {
    let read = 0;
    let repeated = 0;
    fc.assert(
      fc.property(runs, (lists) => {
        const { walk, reads } = walked(lists);
        expect(changedParts(walk, window)).toEqual(changedParts(lists, window));
        const [tableA, tableB] = [new AtomTable(), new AtomTable()];
        expect(shown(activeEntries(walk, tableA, window), tableA)).toEqual(shown(activeEntries(lists, tableB, window), tableB));
        expect(regionsWhere(walked(lists).walk, window)).toEqual(regionsWhere(lists, window));
        if (reads() === 2) read += 1;
        if (lists.some((list, i) => i > 0 && list === lists[i - 1])) repeated += 1;
      }),
      { numRuns: 300 },
    );
    expect(read).toBe(300);
    expect(repeated).toBeGreaterThan(30);
  });
});

describe('the numbers of each list kept as a delta against the one before (IdsAlong)', () => {
  test('read back are the arrays joined one by one, the list before still whole when the next is read', () => {
    let reused = 0;
    let resized = 0;
    let compared = 0;
    fc.assert(
      fc.property(runs, (lists) => {
        const ids = new Map<NormalRule, number>();
        const of = (rule: NormalRule): number => ids.get(rule) ?? (ids.set(rule, ids.size), ids.size - 1);
        const distinct = lists.filter((list, i) => list !== lists[i - 1]);
        const first = Int32Array.from((distinct[0] as NormalRule[]).filter((rule) => rule.status === 'active').map(of));
        const along = new IdsAlong(first);
        const joined: Int32Array[] = [first];
        distinct.slice(1).forEach((list, i) => {
          const delta = activeAfter(distinct[i] as NormalRule[], list, of, (joined[i] as Int32Array).length);
          expect(along.push(delta)).toBe(joinedIds(joined[i] as Int32Array, delta).length);
          joined.push(joinedIds(joined[i] as Int32Array, delta));
        });
        // The joined numbers are those of each list's active rules (the delta loses none).
        joined.forEach((numbers, i) => expect([...numbers]).toEqual((distinct[i] as NormalRule[]).filter((rule) => rule.status === 'active').map(of)));
        expect(along.length).toBe(joined.length);
        let before: Int32Array | undefined;
        let read = 0;
        for (const list of along.lists()) {
          expect([...list]).toEqual([...(joined[read] as Int32Array)]);
          if (before !== undefined) expect([...before]).toEqual([...(joined[read - 1] as Int32Array)]);
          compared += 1;
          before = list;
          read += 1;
        }
        expect(read).toBe(joined.length);
        if (joined.length >= 4) reused += 1;
        if (joined.some((numbers, i) => i > 0 && numbers.length !== (joined[i - 1] as Int32Array).length)) resized += 1;
      }),
      { numRuns: 500 },
    );
    // Each of the two arrays filled again at least once, and lists of other lengths in between.
    expect(reused).toBeGreaterThan(200);
    expect(resized).toBeGreaterThan(250);
    expect(compared).toBeGreaterThan(2000);
  });
});
