// Declared rules of a rule file's text, as the loader reads them from disk.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RuleFileText } from '../../src/import/update/index.js';
import type { DeclaredRule } from '../../src/rules/model.js';
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
