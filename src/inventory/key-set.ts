// The set of record identities an export has delivered, kept outside the JavaScript heap.
// A Set<string> of 100,000 keys holds about 9 MB of live heap, and V8 sizes the old generation
// as a multiple of what is live, so the process grew by several times that as the inventory
// grew. Here the keys' code units sit in one growing byte buffer, found through an
// open-addressing table of offsets: about 40 bytes for a 24-character key, none of it on the heap.
// Membership is exact: keys are compared code unit by code unit, never by hash alone.

const LENGTH_BYTES = 4;
const TAG_BYTES = 1;
/** How a key's code units are stored: one byte each when they all fit, else two (UTF-16LE). */
const ONE_BYTE = 0;
const TWO_BYTE = 1;
const INITIAL_SLOTS = 1 << 12;
const INITIAL_BYTES = 1 << 16;

export class KeySet {
  /** Each key: its byte length (uint32 LE), its encoding tag, its code units. */
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  private used = 0;
  /** Offset + 1 of a key's entry in `bytes`; 0 marks an empty slot. */
  private slots = new Uint32Array(INITIAL_SLOTS);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds the key and returns true, or returns false when it was already there. */
  add(key: string): boolean {
    const entry = this.used;
    const start = entry + LENGTH_BYTES + TAG_BYTES;
    // The candidate is written past the last key; it is kept only if it is new.
    const length = this.writeCandidate(key, start);
    const hash = hashBytes(this.bytes, start - 1, start + length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = this.slots[slot] as number;
      if (stored === 0) {
        this.bytes.writeUInt32LE(length, entry);
        this.slots[slot] = entry + 1;
        this.used = start + length;
        this.count += 1;
        if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
        return true;
      }
      if (this.sameAs(stored - 1, start - 1, length)) return false;
    }
  }

  /** Writes the tag and code units at `start`; returns their byte length. Plain loops: keys are short. */
  private writeCandidate(key: string, start: number): number {
    this.reserve(LENGTH_BYTES + TAG_BYTES + key.length * 2);
    const bytes = this.bytes;
    for (let i = 0; i < key.length; i += 1) {
      const unit = key.charCodeAt(i);
      if (unit > 0xff) {
        bytes[start - 1] = TWO_BYTE;
        return bytes.write(key, start, key.length * 2, 'utf16le');
      }
      bytes[start + i] = unit;
    }
    bytes[start - 1] = ONE_BYTE;
    return key.length;
  }

  /** Whether the entry at `entry` holds the tag and `length` bytes found at `candidate`. */
  private sameAs(entry: number, candidate: number, length: number): boolean {
    const bytes = this.bytes;
    if (bytes.readUInt32LE(entry) !== length) return false;
    const from = entry + LENGTH_BYTES;
    for (let i = 0; i <= length; i += 1) if (bytes[from + i] !== bytes[candidate + i]) return false;
    return true;
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (this.used + extra > size) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.bytes.copy(bigger, 0, 0, this.used);
    this.bytes = bigger;
  }

  private rehash(size: number): void {
    const slots = new Uint32Array(size);
    const mask = size - 1;
    for (const stored of this.slots) {
      if (stored === 0) continue;
      const entry = stored - 1;
      const from = entry + LENGTH_BYTES;
      let slot = hashBytes(this.bytes, from, from + TAG_BYTES + this.bytes.readUInt32LE(entry)) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = stored;
    }
    this.slots = slots;
  }
}

/** FNV-1a over bytes [start, end): cheap, and spreads hex keys and URLs well enough for probing. */
function hashBytes(bytes: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) {
    hash ^= bytes[i] as number;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
