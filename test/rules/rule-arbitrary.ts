// Random rule files for the fast-path tests: random rules (mostly valid, some not), written by
// yaml's stringify in block or flow style, plain or quoted, with CRLF, comments, `---`, a BOM.
import fc from 'fast-check';
import { Document, isMap, isSeq, visit, type ToStringOptions } from 'yaml';

/** Mostly ordinary words; sometimes strings that need quoting, look like other types, or carry characters YAML cares about. */
const tricky = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ./_-]{0,15}[A-Za-z0-9]$/) },
  fc.constantFrom('plain', 'a: b', '#x', 'a #b', "it's", 'say "hi"', '- x', '? x', '*x', '&x', '!x', '{x}', '[x]', 'a, b', '123', '-.5', '1e3',
    '0o17', '0x1F', '0b101', '1_000', 'true', 'True', 'no', 'null', '~', '', ' lead', 'trail ', 'tab\there', 'two\nlines', '\\d+', 'é😀', '%x', '@x', '`x'),
  fc.string({ unit: fc.constantFrom(...Array.from('abz AZ09:#-?*&!{}[],\'"\\|>%@`~./\né😀')), maxLength: 12 }),
);

const leaf = fc.oneof(
  fc.record({ conditionType: fc.constant('path'), operator: fc.constantFrom('$eq', '$contains', '$startsWith'), value: tricky }),
  fc.record({ conditionType: fc.constant('header'), fieldOption: tricky, operator: fc.constant('$exists') }),
  fc.record({ conditionType: fc.constant('userAgent'), operator: fc.constant('$re'), value: fc.array(fc.constantFrom('^a', 'b\\d+', '(x|y)'), { minLength: 1, maxLength: 3 }) }),
  fc.record({ conditionType: fc.constant('socketIps'), operator: fc.constant('$in'), value: fc.array(fc.constantFrom('10.0.0.0/8', '2001:db8::/32', '192.0.2.1'), { minLength: 1, maxLength: 3 }) }),
  fc.record({ conditionType: fc.constant('country'), operator: fc.constant('$notIn'), value: fc.array(fc.constantFrom('US', 'GB', 'uk'), { minLength: 1, maxLength: 2 }) }),
);

const rule = fc.record(
  {
    name: tricky,
    ruleId: fc.uuid(),
    description: tricky,
    status: fc.constantFrom('active', 'paused'),
    actions: fc.subarray(['allow', 'blockWithChallenge', 'hardBlock'], { minLength: 1 }),
    conditions: fc.record({
      operator: fc.constantFrom('$or', '$and'),
      children: fc.array(fc.record({ operator: fc.constantFrom('$or', '$and'), children: fc.array(leaf, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }),
    }),
  },
  { requiredKeys: ['name', 'actions', 'conditions'] },
);

const style: fc.Arbitrary<ToStringOptions> = fc.record({
  defaultStringType: fc.constantFrom('PLAIN' as const, 'QUOTE_DOUBLE' as const, 'QUOTE_SINGLE' as const),
  defaultKeyType: fc.constantFrom(null, 'PLAIN' as const),
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  lineWidth: fc.constantFrom(0, 0, 40),
  directives: fc.boolean(),
  flowCollectionPadding: fc.boolean(),
});

/** Which collections are written in flow style: none, the leaves and action lists (as import writes them), or all. */
const flow = fc.constantFrom('none', 'leaves', 'leaves', 'all');

/** The bytes of a rule file of 1–3 random rules, written by `yaml` in a random style. */
export const ruleFile = fc
  .record({ rules: fc.array(rule, { minLength: 1, maxLength: 3 }), style, flow, crlf: fc.boolean(), comments: fc.boolean(), bom: fc.boolean() })
  .map(({ rules, style: options, flow: flowStyle, crlf, comments, bom }) => {
    const doc = new Document({ rules });
    visit(doc, {
      Map(_key, node) {
        if (flowStyle === 'all' || (flowStyle === 'leaves' && node.has('conditionType'))) node.flow = true;
      },
      Seq(_key, node) {
        if (flowStyle === 'all') node.flow = true;
      },
      Pair(_key, pair) {
        if (flowStyle === 'leaves' && isSeq(pair.value) && !isMap(pair.value.items[0])) pair.value.flow = true;
      },
    });
    let text = doc.toString(options);
    if (comments) text = `# a comment\n${text.replace(/^( *)(- )?name:/gm, '$1# before a rule\n$1$2name:').replace(/^(.*[^\s:]\])$/gm, '$1 # after')}`;
    if (crlf) text = text.replace(/\n/g, '\r\n');
    return Buffer.concat([Buffer.from(bom ? '\ufeff' : ''), Buffer.from(text)]);
  });
