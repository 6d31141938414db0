import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The layers of src/, top to bottom (docs/design.md, "Layering"). A file may import from its
 * own folder and from the layers below, never from a layer above nor from another folder of its
 * own layer, so the folders form no cycle; src/emulator/ stands beside them and may import only
 * the models of rules/ and scripts/ and the layers below rules/.
 */
export const LAYERS = [
  ['cli'],
  ['engine'],
  ['apply', 'import', 'live', 'github'],
  ['render', 'api'],
  ['validate', 'scripts', 'tests', 'replay'],
  ['diff'],
  ['plan', 'evaluate'],
  ['rules'],
  ['semantics'],
  ['io', 'generated'],
  ['errors.ts', 'runtime.ts', 'version.ts', 'exit-codes.ts'],
  ['plural.ts', 'defined.ts'],
];
const EMULATOR = 'emulator';
const at = (names) => names.map((name) => `./src/${name}`);

function layerZones() {
  const zones = [];
  LAYERS.forEach((layer, index) => {
    const above = LAYERS.slice(0, index).flat();
    if (above.length > 0) {
      zones.push({ target: at(layer), from: at(above), message: `Layer ${layer.join(', ')} must not import from a layer above it (docs/design.md, "Layering").` });
    }
    for (const folder of layer.length > 1 ? layer : []) {
      const siblings = layer.filter((name) => name !== folder);
      zones.push({ target: at([folder]), from: at(siblings), message: `${folder} must not import from ${siblings.join(', ')}, beside it in its layer (docs/design.md, "Layering").` });
    }
  });
  // The emulator serves the API the clients call: it shares only the models, never a client, a planner or a command.
  const emulatorMay = new Set(['rules', 'scripts', ...LAYERS.slice(LAYERS.findIndex((l) => l.includes('rules'))).flat()]);
  zones.push({
    target: at([EMULATOR]),
    from: at(LAYERS.flat().filter((name) => !emulatorMay.has(name))),
    message: 'The emulator imports only the rule and script models and what lies below them (docs/design.md, "Layering").',
  });
  zones.push({
    target: at(LAYERS.slice(1).flat()),
    from: at([EMULATOR]),
    message: 'Only src/cli/ starts the emulator (docs/design.md, "Layering").',
  });
  return zones;
}

/** The `yaml` package parses only in src/io/ (docs/design.md, "One YAML reader"). */
const YAML_PARSING = {
  name: 'yaml',
  importNames: ['parse', 'parseDocument', 'parseAllDocuments', 'Parser', 'Lexer', 'Composer'],
  message: 'Parse YAML through src/io/yaml-source.ts (parseYamlText, parseYamlDocument): the one reader, with its limits (docs/design.md, "One YAML reader").',
};

/**
 * One rule semantics (docs/design.md, "One rule semantics"): what a rule means is coded once,
 * in src/semantics/. Elsewhere, defining a normaliser, a canonical form or a matcher of
 * rules, or filling in a rule's defaults again, is an error.
 */
const SECOND_SEMANTICS = [
  {
    selector: ':matches(FunctionDeclaration, VariableDeclarator)[id.name=/^(normali[sz]e|canonical|toLive|toNormal)(Rule|Leaf|Group|Conditions|Value|Tree)s?$|^match(Rules|Declared|Live)$/]',
    message: 'What a rule means is coded once, in src/semantics/ (docs/design.md, "One rule semantics"): import its normaliser, canonical form or matcher instead of writing another.',
  },
  {
    selector: "LogicalExpression[operator='??'][left.property.name=/^(description|status|actions|conditions|fieldOption|value)$/]",
    message: 'Rules are in normal form past their boundary (src/semantics/normalise.ts): a rule\'s defaults are never filled in again; read a leaf through src/semantics/fields.ts (docs/design.md, "One rule semantics").',
  },
  {
    selector: "ConditionalExpression[test.callee.object.name='Array'][test.callee.property.name='isArray'][test.arguments.0.property.name='value'][consequent.property.name='value']",
    message: 'A leaf\'s values as a list are leafValues (src/semantics/fields.ts): the normal form says what an omitted or single value means (docs/design.md, "One rule semantics").',
  },
];

/**
 * The normal form is made at the boundaries only (docs/design.md, "One rule semantics"):
 * NormalRule, and DeclaredRule and LiveRule built on it, carry a mark that exists only for
 * the compiler, and src/semantics/normalise.ts is the one place that puts it on a rule. A type
 * assertion anywhere else that gives a value the mark it did not already have (a literal, a
 * parsed file, `unknown`) would be a second normaliser that normalises nothing, so it is an
 * error; an assertion from a type that has the mark already only narrows (`rules[i] as
 * LiveRule`, dropping `undefined`; a list of decisions as a tuple) and is not.
 */
const NORMAL_FORM_MARK = /^__@normalForm@/;

/** True when the type is a rule in normal form, or a union, array, tuple or generic of such rules. */
function carriesNormalForm(checker, type, depth = 0) {
  if (depth > 3) return false;
  if (type.isUnionOrIntersection() && type.types.some((part) => carriesNormalForm(checker, part, depth + 1))) return true;
  if (type.getProperties().some((property) => NORMAL_FORM_MARK.test(String(property.escapedName)))) return true;
  const typeArguments = [...(type.target === undefined ? [] : checker.getTypeArguments(type)), ...(type.aliasTypeArguments ?? [])];
  return typeArguments.some((argument) => carriesNormalForm(checker, argument, depth + 1));
}

const forgedNormalForm = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      forged: 'Only src/semantics/normalise.ts makes a rule in normal form: pass it through normaliseRule or normaliseLiveRule instead of asserting its type (docs/design.md, "One rule semantics").',
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const checker = services.program.getTypeChecker();
    // Forging: the asserted type has the mark and the value's type (less `undefined`) has none.
    const check = (node) => {
      if (!carriesNormalForm(checker, services.getTypeAtLocation(node.typeAnnotation))) return;
      if (!carriesNormalForm(checker, checker.getNonNullableType(services.getTypeAtLocation(node.expression)))) context.report({ node, messageId: 'forged' });
    };
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};

/**
 * Commands never format lines (docs/design.md, "One output layer"): a module of src/cli/commands/
 * picks a format and hands a model to src/render/ through writeReport; it neither writes to a
 * stream itself nor builds a line (a string that ends with a line break).
 */
const COMMAND_FORMATS_OUTPUT = [
  {
    selector: "CallExpression[callee.property.name='write']:matches([callee.object.property.name=/^(stdout|stderr)$/], [callee.object.name=/^(stdout|stderr)$/])",
    message: 'A command never writes to stdout or stderr itself: render the model with a renderer of src/render/ and write it with writeReport (src/cli/output.ts).',
  },
  {
    // Help text (usage, epilogue, examples) has its own line breaks; a lone '\n' is a separator.
    selector:
      ":matches(TemplateElement[tail=true][value.cooked=/\\n$/], Literal[value=/.\\n$/])" +
      ":not(CallExpression[callee.property.name=/^(usage|epilogue|example)$/] *)",
    message: 'A command never builds an output line: the line belongs to a renderer of src/render/ (docs/design.md, "One output layer").',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'dist-action/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/emulator/**'],
    rules: { 'no-console': 'error' },
  },
  // The layering, and no import cycle between files (type-only imports included).
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}tsconfig.json` })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones() }],
    },
  },
  // One YAML reader: nothing outside src/io/ asks the yaml package to parse.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/io/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [YAML_PARSING] }] },
  },
  // One rule semantics: no second normaliser, canonical form or matcher outside src/semantics/.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/semantics/**'],
    rules: { 'no-restricted-syntax': ['error', ...SECOND_SEMANTICS] },
  },
  // Commands never format lines; the block repeats the rule semantics' selectors, whose options it replaces.
  {
    files: ['src/cli/commands/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SECOND_SEMANTICS, ...COMMAND_FORMATS_OUTPUT] },
  },
  // The planner is pure: no file system, no network (docs/design.md, "Pure planner"). (A later
  // block replaces the rule's options for its files, so the YAML restriction is repeated.)
  {
    files: ['src/plan/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'http', 'node:http', 'https', 'node:https', 'net', 'node:net', 'got', YAML_PARSING],
      }],
    },
  },
  // Promises in the source are awaited or handled: type-aware rules. The program of
  // tsconfig.build.json (src/ only) is built faster than the project service's, which takes in
  // the tests too.
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.build.json', tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // The normal form is made only in src/semantics/normalise.ts: no type assertion forges it.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/semantics/normalise.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.build.json', tsconfigRootDir: root } },
    plugins: { botrules: { rules: { 'forged-normal-form': forgedNormalForm } } },
    rules: { 'botrules/forged-normal-form': 'error' },
  },
);
