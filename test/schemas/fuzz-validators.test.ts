// Mutation fuzzing (every single and a spread of paired mutations of each sample): the slow Jest project.
// The validators generated at build time (scripts/build-validators.js → src/generated/) must
// behave exactly as ajv compiling schemas/*.json right now, with the options each call site
// used when it compiled at run time: the same verdict and the same `errors` (the messages are
// worded from instancePath, keyword, params, schemaPath and, with verbose, schema and data).
// So a schema edited without a rebuild, or a generator whose options drift, fails here.
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import * as generated from '../../src/generated/validators.js';
import { documentsFrom, type Json } from './mutations.js';
import { configFiles, listAnswers, liveSnapshots, patchBodies, plans, policies, postBodies, ruleFiles, snapshots, updateAnswers } from './samples.js';

/** A small test file (botrules test): every field kind once. */
const TEST_FILE: Json = {
  tests: [{
    name: 'login', app: 'shop',
    request: { path: '/login', method: 'POST', ip: '192.0.2.1', asn: '13335', headers: { 'x-a': '1' }, query: { q: 's' } },
    expect: { rule: 'Challenge logins', actions: ['blockWithChallenge'] },
  }],
};

/** Policy files (docs/behaviour.md, "Policies"): each expectation, a class and none, apps. */
const POLICY_FILES: Json[] = [{
  policies: [
    {
      name: 'Health checks are allowed', level: 'error', apps: ['shop'],
      requests: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: '/health' }, { conditionType: 'header', fieldOption: 'x-a', operator: '$exists' }] }] },
      expect: { outcome: ['allow', 'none'] },
    },
    { name: 'Partners decide', level: 'advisory', expect: { decidedBy: 'Allow partners' } },
  ],
}];

interface Case {
  name: keyof typeof generated;
  schema: string;
  /** Another schema it refers to, added under its file name first. */
  uses?: string;
  /** A definition of the schema, compiled as `getSchema(key#/definitions/NAME)` compiles it. */
  definition?: string;
  /** The options of the call site that used to compile it (stated here, not read from the generator). */
  options: Options;
  samples: Json[];
}

const RULE_FILES: Options = { strict: true, allErrors: true, allowUnionTypes: true, verbose: true };
const API: Options = { allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true };

const CASES: Case[] = [
  { name: 'validateRules', schema: 'rules', options: RULE_FILES, samples: ruleFiles },
  { name: 'validateConfig', schema: 'config', options: RULE_FILES, samples: configFiles },
  { name: 'validateListEnvelope', schema: 'api-rules-response', definition: 'listEnvelope', options: API, samples: listAnswers },
  { name: 'validateUpdateEnvelope', schema: 'api-rules-response', definition: 'updateEnvelope', options: API, samples: updateAnswers },
  { name: 'validatePlan', schema: 'plan', options: { allErrors: true, strict: true }, samples: plans },
  {
    name: 'validatePolicy',
    schema: 'scripts-policy',
    options: { allErrors: true, strict: true, strictRequired: false, verbose: true },
    samples: policies,
  },
  { name: 'validateSnapshot', schema: 'scripts-snapshot', options: { allErrors: true, strict: true }, samples: snapshots },
  { name: 'validateTests', schema: 'tests', options: RULE_FILES, samples: [TEST_FILE] },
  { name: 'validatePolicies', schema: 'policies', uses: 'rules', options: RULE_FILES, samples: POLICY_FILES },
  {
    name: 'validatePatchBody',
    schema: 'patch-body',
    options: { allErrors: false, strict: true, strictRequired: false, verbose: true },
    samples: patchBodies,
  },
  {
    name: 'validatePostBody',
    schema: 'post-body',
    uses: 'patch-body',
    options: { allErrors: false, strict: true, strictRequired: false, verbose: true },
    samples: postBodies,
  },
  { name: 'validateLiveSnapshot', schema: 'live-snapshot', options: { allErrors: true, strict: true, allowUnionTypes: true }, samples: liveSnapshots },
];

function readSchema(name: string): object {
  return JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8')) as object;
}

function freshlyCompiled(c: Case): ValidateFunction {
  const ajv = new Ajv(c.options);
  if (c.uses !== undefined) ajv.addSchema(readSchema(c.uses), `${c.uses}.schema.json`);
  if (c.definition === undefined) return ajv.compile(readSchema(c.schema));
  ajv.addSchema(readSchema(c.schema), c.schema);
  const validate = ajv.getSchema(`${c.schema}#/definitions/${c.definition}`);
  if (!validate) throw new Error(`no definition ${c.definition} in ${c.schema}`);
  return validate;
}

/** The verdict and the errors of one call (a validator keeps only its last call's errors). */
function outcome(validate: ValidateFunction, document: Json): { valid: boolean; errors: unknown } {
  const valid = validate(document);
  return { valid, errors: validate.errors ?? null };
}

describe('generated schema validators', () => {
  it('cover every validator the generated module exports', () => {
    expect(Object.keys(generated).sort()).toEqual(CASES.map((c) => c.name).sort());
  });

  describe.each(CASES)('$name', (c) => {
    const fresh = freshlyCompiled(c);
    const built = generated[c.name] as ValidateFunction;

    it('accepts the valid samples', () => {
      for (const sample of c.samples) expect(outcome(built, structuredClone(sample))).toEqual({ valid: true, errors: null });
    });

    it('agrees with ajv compiling the schema now, on valid and mutated documents', () => {
      const mismatches: string[] = [];
      let invalid = 0;
      let checked = 0;
      for (const sample of c.samples) {
        for (const { label, value } of documentsFrom(sample)) {
          const expected = outcome(fresh, structuredClone(value));
          const actual = outcome(built, value);
          checked += 1;
          if (!expected.valid) invalid += 1;
          if (!isDeepStrictEqual(actual, expected)) {
            mismatches.push(`${label}: generated ${JSON.stringify(actual)}, ajv ${JSON.stringify(expected)}`);
          }
        }
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
      // Not vacuous: most mutants break the schema, and some still pass it.
      expect(invalid).toBeGreaterThan(checked / 2);
      expect(invalid).toBeLessThan(checked);
    });
  });
});
