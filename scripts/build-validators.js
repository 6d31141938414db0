// `npm run build` runs this before tsc: it compiles the JSON Schemas of schemas/ with ajv and
// writes their validators as plain functions (ajv's standalone code) into one generated module,
// src/generated/validators.ts. At run time the tool then imports no ajv compiler and compiles
// nothing: importing ajv and compiling a schema cost tens of milliseconds per process, and
// `validate`/`plan` are run on every push. The schemas themselves stay in schemas/ (editors use
// them through `$schema` comments; the test that the generated code matches them reads them).
//
// Each validator is compiled exactly as its call site compiled it before: the same options
// (they shape the error objects the messages are worded from) and the same ajv call.
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const SCHEMAS_DIR = new URL('../schemas/', import.meta.url);
const OUTPUT = new URL('../src/generated/validators.ts', import.meta.url);

/**
 * One ajv instance per call site: its options, and the validators it exports (name → how the
 * call site obtained the function from ajv).
 */
const GROUPS = [
  {
    site: 'src/rules/schemas.ts',
    // verbose: the rule-file and config messages quote the offending schema and value.
    options: { strict: true, allErrors: true, allowUnionTypes: true, verbose: true },
    validators: {
      validateRules: (ajv) => ajv.compile(readSchema('rules')),
      validateConfig: (ajv) => ajv.compile(readSchema('config')),
    },
  },
  {
    site: 'src/rules/policies.ts',
    // verbose, as for rule files: the class of requests is worded by the rule-file messages.
    options: { strict: true, allErrors: true, allowUnionTypes: true, verbose: true },
    validators: {
      validatePolicies: (ajv) => {
        ajv.addSchema(readSchema('rules'), 'rules.schema.json');
        return ajv.compile(readSchema('policies'));
      },
    },
  },
  {
    site: 'src/api/rule-response.ts',
    // strictRequired off: a listed rule adds `required: [ruleId]` on top of the customRule it refers to.
    options: { allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true },
    validators: {
      validateListEnvelope: (ajv) => definition(ajv, 'api-rules-response', 'listEnvelope'),
      validateUpdateEnvelope: (ajv) => definition(ajv, 'api-rules-response', 'updateEnvelope'),
    },
  },
  {
    site: 'src/plan/file-format.ts',
    options: { allErrors: true, strict: true },
    validators: { validatePlan: (ajv) => ajv.compile(readSchema('plan')) },
  },
  {
    site: 'src/scripts/policy.ts',
    // verbose: the error messages name the keys an entry allows (from the parent schema).
    options: { allErrors: true, strict: true, strictRequired: false, verbose: true },
    validators: { validatePolicy: (ajv) => ajv.compile(readSchema('scripts-policy')) },
  },
  {
    site: 'src/scripts/snapshot.ts',
    options: { allErrors: true, strict: true },
    validators: { validateSnapshot: (ajv) => ajv.compile(readSchema('scripts-snapshot')) },
  },
  {
    site: 'src/tests/load.ts',
    // verbose: the generic schema messages quote the offending value.
    options: { strict: true, allErrors: true, allowUnionTypes: true, verbose: true },
    validators: { validateTests: (ajv) => ajv.compile(readSchema('tests')) },
  },
  {
    site: 'src/emulator/validate-patch.ts',
    // allErrors off: a 400 names the first problem only. strictRequired off: `not: {required}`
    // forbids a field the schema does not define there. verbose: the messages are worded from
    // the schema that failed (its enum, whether a string may be blank) and the value sent.
    options: { allErrors: false, strict: true, strictRequired: false, verbose: true },
    validators: {
      validatePatchBody: (ajv) => ajv.compile(readSchema('patch-body')),
      // A POST body is a PATCH body with the whole rule: its schema refers to the PATCH body's.
      validatePostBody: (ajv) => {
        if (!ajv.schemas['patch-body.schema.json']) ajv.addSchema(readSchema('patch-body'), 'patch-body.schema.json');
        return ajv.compile(readSchema('post-body'));
      },
    },
  },
  {
    site: 'src/live/snapshot.ts',
    options: { allErrors: true, strict: true, allowUnionTypes: true },
    validators: { validateLiveSnapshot: (ajv) => ajv.compile(readSchema('live-snapshot')) },
  },
];

/** `ajv/dist/runtime/NAME` helpers the generated code calls (ucs2length, equal, …). */
const RUNTIME_REQUIRE = /require\("ajv\/dist\/runtime\/([a-zA-Z0-9]+)"\)/g;

function readSchema(name) {
  return JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMAS_DIR), 'utf8'));
}

/**
 * A definition of a schema added under `key`, as `ajv.getSchema(key#/definitions/name)` compiles
 * it (the schema is added once per instance, and its root is never compiled, as at the call site).
 */
function definition(ajv, key, name) {
  if (!ajv.schemas[key]) ajv.addSchema(readSchema(key), key);
  const validate = ajv.getSchema(`${key}#/definitions/${name}`);
  if (!validate) throw new Error(`schema definition ${name} is missing from schemas/${key}.schema.json`);
  return validate;
}

/**
 * The module text. Every validator's standalone code (CommonJS form) runs in a function scope
 * of its own, because the names ajv generates (validate10, schema11, func2, …) are only unique
 * within one ajv instance, and the validators come from several instances. The `require` of
 * ajv's runtime helpers becomes an ESM import of the same file (a few lines each, not the compiler).
 */
function generate() {
  const runtime = new Set();
  const parts = [];
  for (const group of GROUPS) {
    const ajv = new Ajv({ ...group.options, code: { source: true, lines: true } });
    for (const [name, obtain] of Object.entries(group.validators)) {
      const code = standaloneCode(ajv, obtain(ajv)).replace(RUNTIME_REQUIRE, (_, helper) => {
        runtime.add(helper);
        return `runtime_${helper}`;
      });
      if (/\brequire\(/.test(code)) throw new Error(`${name}: generated code requires a module other than ajv's runtime helpers`);
      parts.push(
        `/** ${group.site}: ${JSON.stringify(group.options)} */`,
        `export const ${name}: ValidateFunction = (function () {`,
        'const module = { exports: {} };',
        code,
        'return module.exports;',
        '})();',
        '',
      );
    }
  }
  return [
    '// Generated from schemas/*.json by scripts/build-validators.js (npm run build); do not edit.',
    '/* eslint-disable */',
    '// @ts-nocheck',
    "import type { ValidateFunction } from 'ajv';",
    ...[...runtime].sort().map((helper) => `import runtime_${helper} from 'ajv/dist/runtime/${helper}.js';`),
    '',
    ...parts,
  ].join('\n');
}

/** Writes the module only when its text changed, so an unchanged build leaves it untouched. */
function main() {
  const text = generate();
  let previous;
  try {
    previous = readFileSync(OUTPUT, 'utf8');
  } catch {
    previous = undefined;
  }
  if (previous === text) return;
  mkdirSync(new URL('.', OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, text);
}

main();
