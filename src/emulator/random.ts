// A small seeded pseudo-random generator, so generated data and fault rates repeat
// exactly for a given --random-seed (tests and benchmarks rely on that).

export type Random = () => number;

/** mulberry32: 32-bit state, uniform floats in [0, 1). Good enough for test data. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], both inclusive. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick() needs a non-empty list');
  return item;
}

/** An item drawn with the chance its weight has of `total`, the sum of the weights. */
export function pickWeighted<T extends { weight: number }>(random: Random, items: readonly T[], total = 1): T {
  let roll = random() * total;
  return items.find((item) => (roll -= item.weight) < 0) ?? (items[0] as T);
}

/** `count` distinct items in random order (all of them when count exceeds the list). */
export function pickSome<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) {
    const [item] = pool.splice(Math.floor(random() * pool.length), 1);
    if (item !== undefined) chosen.push(item);
  }
  return chosen;
}

export function randomHex(random: Random, length: number): string {
  let text = '';
  while (text.length < length) text += Math.floor(random() * 16).toString(16);
  return text;
}

/** UUID-like text (version-4 layout) drawn from the seeded generator, so ids repeat per seed. */
export function randomUuid(random: Random): string {
  const hex = randomHex(random, 32);
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
