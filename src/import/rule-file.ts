// Turns live rules into rule files: one file per rule, named so that lexical order is live
// order, holding the rule as src/semantics/written.ts writes it, with its `ruleId` (so
// renames stay safe) and every field the service stores, known or not.
import { join, relative, sep } from 'node:path';
import { Document, isScalar, isSeq, Scalar, visit, type Node } from 'yaml';
import { hasInvisibleCharacter, yamlQuotedEscapes } from '../render/sanitise.js';
import type { LiveRule } from '../semantics/model.js';
import { writtenRule } from '../semantics/written.js';

/** Where a project that installs botrules (`npm install --save-dev`) has the rule-file schema, from its root. */
export const INSTALLED_SCHEMA = 'node_modules/botrules/schemas/rules.schema.json';

/**
 * The `$schema` an editor's YAML language server follows from a rule file in `dir`: the schema
 * of the botrules package installed in the project (`projectDir`), relative to the file, so
 * the reference holds in every clone of the repository (docs/behaviour.md, "Editor support").
 */
export function schemaReference(dir: string, projectDir: string): string {
  return relative(dir, join(projectDir, INSTALLED_SCHEMA)).split(sep).join('/');
}

/** A rules directory at the project's root (`rules/`): `../node_modules/botrules/schemas/rules.schema.json`. */
const DEFAULT_SCHEMA_REFERENCE = schemaReference('rules', '.');

/** The comment line (without `#`) that names the schema. */
export function schemaComment(reference: string): string {
  return ` yaml-language-server: $schema=${reference}`;
}

/** The reference a rule file's first comments name, if any. */
export function schemaReferenceIn(text: string): string | undefined {
  return /^#\s*yaml-language-server:\s*\$schema=(\S+)/m.exec(text.slice(0, 4096))?.[1];
}

/**
 * File names for `count` rules in live order: `010-block-scrapers.yaml`, `020-…`. Numbers
 * step by ten so a rule can later be inserted between two without renaming others, and are
 * zero-padded (at least three digits) so lexical order is numeric order.
 */
export function ruleFileNames(names: readonly string[]): string[] {
  const width = Math.max(3, String(names.length * 10).length);
  return names.map((name, index) => `${String((index + 1) * 10).padStart(width, '0')}-${slugify(name)}.yaml`);
}

/** A file-name-safe form of a rule name: lower-case ASCII words joined by dashes. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug === '' ? 'rule' : slug;
}

/** The YAML text of a rule file holding one live rule, naming `schema` for editors. */
export function ruleFileText(rule: LiveRule, schema: string = DEFAULT_SCHEMA_REFERENCE): string {
  // On the root mapping rather than the document, so no blank line separates it from `rules:`.
  return writtenYaml({ rules: [writtenRule(rule)] }, schemaComment(schema));
}

/**
 * `value` (a rule file, a rule, a part of one) as YAML in the style `import` writes: leaves and
 * action lists on one line each, as in the documented example; `commentBefore` above it.
 */
function writtenYaml(value: unknown, commentBefore?: string): string {
  const doc = new Document(value);
  if (commentBefore !== undefined && doc.contents !== null) doc.contents.commentBefore = commentBefore;
  if (doc.contents !== null) withImportStyle(doc.contents);
  return yamlText(doc);
}

/** Sets `node` and what it holds in the style `import` writes: leaves and action lists in flow style. `key`: the key it stands under. */
export function withImportStyle(node: Node, key?: unknown): Node {
  if (key === 'actions' && isSeq(node)) node.flow = true;
  visit(node, {
    Map(_key, map) {
      if (map.has('conditionType')) map.flow = true;
    },
    Pair(_key, pair) {
      if (isScalar(pair.key) && pair.key.value === 'actions' && isSeq(pair.value)) pair.value.flow = true;
    },
  });
  return node;
}

/**
 * The document's text with every string that holds an invisible, reordering or line-breaking
 * character (a zero-width space, U+202E, U+2028, a tag character) double-quoted and that
 * character written as a `\u` escape: raw in a plain scalar, an editor and a pull request's
 * diff would show a rule that does not say what it matches.
 */
export function yamlText(doc: Document): string {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasInvisibleCharacter(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // Every such character is now inside a double-quoted scalar, where `\u` escapes are read.
  return yamlQuotedEscapes(doc.toString({ lineWidth: 0 }));
}
