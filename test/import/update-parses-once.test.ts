// import --update parses each rule file once: the loader's parse (which validates the file) is
// the Document the interpreter edits, and no scalar it writes is parsed back to check it.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readAppFiles } from '../../src/import/update/files.js';
import { updateRuleFiles } from '../../src/import/update/index.js';
import type { LiveRule } from '../../src/semantics/model.js';
import { tempDir } from '../helpers/temp.js';
import { live as liveRule } from '../helpers/rules.js';

// The package object src/io/yaml-source.ts loads (CommonJS, one instance per process).
const yaml = createRequire(import.meta.url)('yaml') as { parseDocument: (...args: unknown[]) => unknown };

const leaf = (value: string) => ({ conditionType: 'path' as const, operator: '$eq' as const, value });
const live = (ruleId: string, name: string, priority: number, extra: Partial<LiveRule> = {}): LiveRule => liveRule({
  ruleId, name, priority, description: '', status: 'active', actions: ['allow'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf(`/${ruleId}`)] }] },
  ...extra,
});
const ruleText = (ruleId: string, name: string) =>
  `  - name: ${name}\n    ruleId: ${ruleId}\n    actions: [allow]\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - { conditionType: path, operator: $eq, value: /${ruleId} }\n`;

describe('import --update reads', () => {
  it('parses each rule file once, however many fields, rules and files change', async () => {
    const dir = tempDir('botrules-parse-once-');
    writeFileSync(path.join(dir, '010-a.yaml'), `rules:\n${ruleText('a1', 'A')}${ruleText('b1', 'B')}`);
    writeFileSync(path.join(dir, '020-c.yaml'), `rules:\n${ruleText('c1', 'C')}`);
    writeFileSync(path.join(dir, '030-d.yaml'), `rules:\n${ruleText('d1', 'D')}`);
    const original = yaml.parseDocument;
    let parses = 0;
    yaml.parseDocument = (...args: unknown[]) => {
      parses += 1;
      return original(...args);
    };
    try {
      const { files, declared } = await readAppFiles(dir, dir);
      const result = updateRuleFiles({
        files, declared, schema: 'x',
        // Renamed (to names that need quoting), paused, described, moved between files, added.
        live: [live('c1', 'yes', 0, { description: 'a: b' }), live('a1', '123', 1, { status: 'paused' }), live('n1', 'New', 2), live('b1', "B's", 3), live('d1', 'D', 4)],
      });
      expect(result.changes.length).toBeGreaterThan(0);
      expect(parses).toBe(3);
    } finally {
      yaml.parseDocument = original;
    }
  });
});
