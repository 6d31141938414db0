// Fresh YAML text for what `import --update` adds or replaces: the part itself (never a stand-in
// rule around it) as the `yaml` package writes it, in the style `import` writes (leaves and
// action lists on one line, rule-file.ts), shifted to where it goes.
import { Scalar, stringify } from 'yaml';
import { parseYamlDocument } from '../../located/yaml-source.js';
import { hasInvisibleCharacter, yamlQuotedEscapes } from '../../render/sanitise.js';
import type { Conditions, Group, Leaf, LiveRule } from '../../semantics/model.js';
import { writtenConditions, writtenLeaf, writtenRule } from '../../semantics/written.js';
import { writtenYaml } from '../rule-file.js';
import { linesOf, reindent } from './text.js';

/** A scalar for `value`, quoted the way `like` was (plain, single or double), on one line. */
export function renderScalar(value: string, like?: Scalar): string {
  // JSON's escapes are YAML's; the characters JSON leaves raw but nobody sees are escaped too.
  const double = yamlQuotedEscapes(JSON.stringify(value));
  if (hasControlCharacter(value) || hasInvisibleCharacter(value)) return double;
  if (like?.type === Scalar.QUOTE_DOUBLE) return double;
  if (like?.type === Scalar.QUOTE_SINGLE) return `'${value.replace(/'/g, "''")}'`;
  const plain = stringify(value, { lineWidth: 0 }).replace(/\n$/, '');
  return !plain.includes('\n') && readsBackAs(plain, value) ? plain : double;
}

/** True when the `yaml` reader reads `text` back as exactly the string `value`. */
function readsBackAs(text: string, value: string): boolean {
  const { document } = parseYamlDocument(text);
  return document.errors.length === 0 && document.toJS() === value;
}

/** A leaf as a one-line flow mapping, keys in the order `import` writes them. */
export function renderLeaf(leaf: Leaf): string {
  return writtenYaml(writtenLeaf(leaf)).replace(/\n$/, '');
}

/** An action list in flow style: `[allow, hardBlock]`. */
export function renderFlowList(values: readonly string[]): string {
  return `[${values.map((v) => renderScalar(v)).join(', ')}]`;
}

/** A whole rule as a list item whose `-` stands at `dashCol`. */
export function renderRuleBlock(rule: LiveRule, dashCol: number): string {
  return reindent(writtenYaml([writtenRule(rule)]), dashCol);
}

/** The text of a rule's `conditions` value: first line unindented, the rest under `keyCol`. */
export function renderConditionsValue(conditions: Conditions, keyCol: number): string {
  const [first = '', ...rest] = linesOf(writtenYaml(writtenConditions(conditions)));
  return (first + reindent(rest.join(''), keyCol + 2)).replace(/\n$/, '');
}

/** A group as a list item whose `-` stands at `dashCol`, without a final newline. */
export function renderGroupItem(group: Group, dashCol: number): string {
  const written = writtenConditions({ operator: '$or', children: [group] }).children as unknown[];
  return reindent(writtenYaml(written), dashCol).replace(/\n$/, '');
}

/** Any character a one-line plain or single-quoted scalar cannot hold as it is. */
function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}
