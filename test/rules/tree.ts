// Writes a tree of files into a fresh temporary directory for one test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

export function writeTree(files: Record<string, string | Uint8Array>): string {
  const root = tempDir('botrules-rules-');
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return root;
}

/** A minimal valid rule as YAML lines (indented as an item of `rules:`). */
export function ruleYaml(name: string, extra = ''): string {
  return [
    `  - name: ${name}`,
    ...(extra ? [extra] : []),
    '    actions: [allow]',
    '    conditions:',
    '      operator: $or',
    '      children:',
    '        - operator: $and',
    '          children:',
    '            - { conditionType: path, operator: $eq, value: /x }',
    '',
  ].join('\n');
}
