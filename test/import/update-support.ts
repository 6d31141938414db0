// Declared rules of a rule file's text, as the loader reads them from disk.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RuleFileText } from '../../src/import/update/index.js';
import type { DeclaredRule } from '../../src/semantics/model.js';
import { readRuleFile } from '../../src/rules/rule-file.js';

export function readRuleFileText(file: RuleFileText): DeclaredRule[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'botrules-update-'));
  try {
    const abs = path.join(dir, 'file.yaml');
    writeFileSync(abs, file.text);
    const read = readRuleFile(abs, file.shown);
    if (read.problems.length > 0) throw new Error(JSON.stringify(read.problems));
    return read.rules;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A console edit of a rule's leaves, named by the property tests' arbitraries. */
export function leafEdit(leaves: string[], kind: string): string[] {
  if (kind === 'add') return [...leaves, 'e'];
  if (kind === 'drop' && leaves.length > 1) return leaves.slice(1);
  if (kind === 'swap') return [...leaves.slice(1), 'f'];
  return leaves;
}

/** A seeded shuffle (a linear congruential generator), so a failing case replays exactly. */
export function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i -= 1) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
