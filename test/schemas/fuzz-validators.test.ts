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
import { configFiles, listAnswers, liveSnapshots, plans, policies, ruleFiles, snapshots, updateAnswers } from './samples.js';

type Json = unknown;

/** A small test file (botrules test): every field kind once. */
const TEST_FILE: Json = {
  tests: [{
    name: 'login', app: 'shop',
    request: { path: '/login', method: 'POST', ip: '192.0.2.1', asn: '13335', headers: { 'x-a': '1' }, query: { q: 's' } },
    expect: { rule: 'Challenge logins', actions: ['blockWithChallenge'] },
  }],
};

interface Case {
  name: keyof typeof generated;
  schema: string;
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
  { name: 'validateLiveSnapshot', schema: 'live-snapshot', options: { allErrors: true, strict: true, allowUnionTypes: true }, samples: liveSnapshots },
];

function readSchema(name: string): object {
  return JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), 'utf8')) as object;
}

function freshlyCompiled(c: Case): ValidateFunction {
  const ajv = new Ajv(c.options);
  if (c.definition === undefined) return ajv.compile(readSchema(c.schema));
  ajv.addSchema(readSchema(c.schema), c.schema);
  const validate = ajv.getSchema(`${c.schema}#/definitions/${c.definition}`);
  if (!validate) throw new Error(`no definition ${c.definition} in ${c.schema}`);
  return validate;
}

type Path = (string | number)[];

/** One change to a document: a label for the failure message and the change itself. */
interface Mutation {
  label: string;
  apply(root: Json): void;
}

/** Values that break (or satisfy) the keywords of these schemas: types, enums, patterns, limits. */
const REPLACEMENTS: Json[] = [
  null, 0, -1, 2.5, true, '', ' ', 'x', [], {}, ['x'], [1], { x: 1 },
  '$in', '$exists', '$eq', 'header', 'userAgent', 'paused', 'allow', '2030-13-01', 'sha256:0', 'botrules', 1,
];

function nodesOf(value: Json, path: Path = []): Path[] {
  const children: Path[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => children.push(...nodesOf(item, [...path, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) children.push(...nodesOf(item, [...path, key]));
  }
  return [path, ...children];
}

/** The container of the node at `path` and its key there, when the path still exists. */
function parentOf(root: Json, path: Path): { parent: Record<string | number, Json>; key: string | number } | undefined {
  let current = root;
  for (const step of path.slice(0, -1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, Json>)[step];
  }
  const key = path.at(-1);
  if (key === undefined || current === null || typeof current !== 'object' || !(key in current)) return undefined;
  return { parent: current as Record<string | number, Json>, key };
}

/** Every single change at every node: replaced by each value, removed, and (objects) given an unknown key. */
function mutationsOf(sample: Json): Mutation[] {
  const mutations: Mutation[] = [];
  for (const path of nodesOf(sample)) {
    const where = `/${path.join('/')}`;
    if (path.length > 0) {
      for (const value of REPLACEMENTS) {
        mutations.push({ label: `${where} = ${JSON.stringify(value)}`, apply: (root) => {
          const at = parentOf(root, path);
          if (at) at.parent[at.key] = structuredClone(value);
        } });
      }
      mutations.push({ label: `delete ${where}`, apply: (root) => {
        const at = parentOf(root, path);
        if (!at) return;
        if (Array.isArray(at.parent)) at.parent.splice(Number(at.key), 1);
        else delete at.parent[at.key];
      } });
    }
    mutations.push({ label: `${where} + unknown key`, apply: (root) => {
      const node = path.length === 0 ? root : (() => {
        const at = parentOf(root, path);
        return at ? at.parent[at.key] : undefined;
      })();
      if (node !== null && typeof node === 'object' && !Array.isArray(node)) (node as Record<string, Json>).unexpected = 1;
    } });
  }
  return mutations;
}

/** The sample itself, each single mutation, and pairs of them (allErrors collects several errors). */
function documentsFrom(sample: Json): { label: string; value: Json }[] {
  const mutations = mutationsOf(sample);
  const documents = [{ label: 'the valid sample', value: structuredClone(sample) }];
  for (const [i, mutation] of mutations.entries()) {
    const single = structuredClone(sample);
    mutation.apply(single);
    documents.push({ label: mutation.label, value: single });
    // A second, spread-out mutation on top of the first (deterministic: the same pairs each run).
    const other = mutations[(i * 7919 + 13) % mutations.length];
    if (other && other !== mutation) {
      const pair = structuredClone(single);
      other.apply(pair);
      documents.push({ label: `${mutation.label}, ${other.label}`, value: pair });
    }
  }
  return documents;
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
