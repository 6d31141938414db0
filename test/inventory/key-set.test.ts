// The off-heap key set must answer exactly as a Set<string> would: these cases are the ways a
// byte encoding could make two different keys look the same, plus growth past every initial size.
import { KeySet } from '../../src/inventory/key-set.js';

describe('KeySet', () => {
  it('adds a key once and reports later additions as duplicates', () => {
    const set = new KeySet();
    expect(set.add('64f1c0ffee00000000000001')).toBe(true);
    expect(set.add('64f1c0ffee00000000000001')).toBe(false);
    expect(set.add('64f1c0ffee00000000000002')).toBe(true);
    expect(set.size).toBe(2);
  });

  it('tells apart keys whose bytes could coincide under another encoding', () => {
    const set = new KeySet();
    const keys = [
      '',
      'ab',
      '\u6261', // UTF-16LE bytes 61 62, the same bytes as "ab" in one-byte form
      'a\u0000',
      '\u0000a',
      'é', // fits one byte (0xe9)
      '\u00e9\u0000',
      '\ud83d\ude00', // a surrogate pair
      '\ud83d', // a lone high surrogate
      '\ude00', // a lone low surrogate
      '\ufffd', // what a lossy UTF-8 encoder would turn both lone surrogates into
      'https://x/1.js\u0000app\u0000h',
      'https://x/1.js\u0000app\u0000other',
    ];
    for (const key of keys) expect(set.add(key)).toBe(true);
    for (const key of keys) expect(set.add(key)).toBe(false);
    expect(set.size).toBe(keys.length);
  });

  it('agrees with a Set<string> across table and buffer growth', () => {
    const set = new KeySet();
    const reference = new Set<string>();
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 30_000; i += 1) {
      // Few distinct values, so duplicates are frequent; some keys outside one byte per unit.
      const n = Math.floor(random() * 20_000);
      const key = random() < 0.1 ? `ключ-${n}` : n.toString(16).padStart(24, '0');
      expect(set.add(key)).toBe(!reference.has(key));
      reference.add(key);
    }
    expect(set.size).toBe(reference.size);
  });

  it('holds keys longer than its initial buffer', () => {
    const set = new KeySet();
    const long = 'x'.repeat(200_000);
    expect(set.add(long)).toBe(true);
    expect(set.add(`${long}y`)).toBe(true);
    expect(set.add(long)).toBe(false);
    expect(set.add('short')).toBe(true);
    expect(set.size).toBe(3);
  });
});
