// The tree the plain-style reader (yaml-plain.ts) gives, and the positions yaml-source.ts asks of
// it: a node's offset by path, and an offset's line and column as the `yaml` package counts them.

/** A node of the file: its offset, and what it holds when it is a mapping or a list. */
export interface PlainNode {
  at: number;
  /** The mapping's pairs in file order (keys are distinct). */
  pairs?: PlainPair[];
  items?: PlainNode[];
  /** A scalar whose value is null (`key:` with nothing after it, `~`, `null`): located at its key. */
  isNull?: boolean;
}

export interface PlainPair {
  key: string;
  keyAt: number;
  value: PlainNode;
}

/** The one-based line and column of `offset`, as the `yaml` package's LineCounter.linePos gives them. */
export function linePos(lineStarts: readonly number[], offset: number): { line: number; col: number } {
  let low = 0;
  let high = lineStarts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((lineStarts[mid] as number) < offset) low = mid + 1;
    else high = mid;
  }
  if (lineStarts[low] === offset) return { line: low + 1, col: 1 };
  if (low === 0) return { line: 0, col: offset };
  return { line: low, col: offset - (lineStarts[low - 1] as number) + 1 };
}

/** The offset of the node at `path` (with `key`, of its key), or of the deepest ancestor the path reaches: yaml-source.ts's offsetOf on this tree. */
export function plainOffsetOf(root: PlainNode, path: readonly (string | number)[], wantKey: boolean): number {
  let node = root;
  for (const [i, segment] of path.entries()) {
    if (node.pairs !== undefined) {
      const pair = node.pairs.find((p) => p.key === String(segment));
      if (pair === undefined) return node.at;
      if (wantKey && i === path.length - 1) return pair.keyAt;
      node = pair.value.isNull === true ? { at: pair.keyAt } : pair.value;
    } else if (node.items !== undefined && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) return node.at;
      node = item;
    } else {
      return node.at;
    }
  }
  return node.at;
}
