// The text of imported rule files: names in live order, the schema comment, the canonical
// field order, and YAML that reads back to the same rule.
import { parse } from 'yaml';
import { ruleFileNames, ruleFileText, schemaReference, schemaReferenceIn, slugify } from '../../src/import/rule-file.js';
import type { LiveRule } from '../../src/semantics/model.js';
import { live } from '../helpers/rules.js';

const rule: LiveRule = live({
  name: 'Block scrapers: "bad" bots',
  ruleId: '3f2a9c1e-0000-4000-8000-000000000001',
  priority: 4,
  description: '',
  status: 'paused',
  actions: ['hardBlock', 'blockWithChallenge'],
  conditions: {
    operator: '$or',
    children: [
      {
        operator: '$and',
        children: [
          { conditionType: 'userAgent', operator: '$contains', value: 'curl' },
          { conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' },
          { conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24', 'true', '123'] },
          { conditionType: 'path', operator: '$re', value: ['^/api/#?.*$'] },
        ],
      },
    ],
  },
});

describe('ruleFileNames', () => {
  it('numbers files so lexical order is live order, in steps of ten', () => {
    const names = ruleFileNames(['Allow monitors', 'Block scrapers']);
    expect(names).toEqual(['010-allow-monitors.yaml', '020-block-scrapers.yaml']);
  });

  it('widens the numbers for large rule sets and keeps lexical order', () => {
    const names = ruleFileNames(Array.from({ length: 1200 }, (_, i) => `rule ${i}`));
    expect(names[0]).toBe('00010-rule-0.yaml');
    expect(names[1199]).toBe('12000-rule-1199.yaml');
    expect([...names].sort()).toEqual(names);
  });

  it('makes file-safe slugs and never an empty one', () => {
    expect(slugify('Café: Überblick / v2!')).toBe('cafe-uberblick-v2');
    expect(slugify('日本語')).toBe('rule');
    expect(slugify('x'.repeat(100))).toHaveLength(48);
  });
});

describe('ruleFileText', () => {
  const text = ruleFileText(rule);

  it('starts with the schema comment: the installed package schema, from a rules/ directory at the root', () => {
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/botrules/schemas/rules.schema.json');
    expect(ruleFileText(rule, 'x/y.json').split('\n')[0]).toBe('# yaml-language-server: $schema=x/y.json');
  });

  it('names the schema relative to the rules directory, wherever it is in the project', () => {
    expect(schemaReference('/p/rules', '/p')).toBe('../node_modules/botrules/schemas/rules.schema.json');
    expect(schemaReference('/p/apps/shop/rules', '/p')).toBe('../../../node_modules/botrules/schemas/rules.schema.json');
    expect(schemaReference('/p', '/p')).toBe('node_modules/botrules/schemas/rules.schema.json');
  });

  it('reads the schema a file names back from its first lines', () => {
    expect(schemaReferenceIn(text)).toBe('../node_modules/botrules/schemas/rules.schema.json');
    expect(schemaReferenceIn('#yaml-language-server: $schema=https://example.com/s.json\nrules: []\n')).toBe('https://example.com/s.json');
    expect(schemaReferenceIn('rules: []\n')).toBeUndefined();
  });

  it('writes identity first, description and status always, and no priority', () => {
    const keys = [...text.matchAll(/^ {4}(\w+):/gm)].map((m) => m[1]);
    expect(keys).toEqual(['ruleId', 'description', 'status', 'actions', 'conditions']);
    expect(text).toMatch(/^ {2}- name: /m);
    expect(text).not.toContain('priority');
  });

  it('writes leaves and actions on one line each', () => {
    expect(text).toContain('actions: [ hardBlock, blockWithChallenge ]');
    expect(text).toContain('- { conditionType: header, fieldOption: x-monitor, operator: $exists }');
  });

  it('reads back to the same rule, strings that look like other types included', () => {
    const { priority: _priority, ...fields } = rule;
    expect(parse(text)).toEqual({ rules: [fields] });
  });
});
