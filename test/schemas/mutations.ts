// Mutants of valid documents, shared by the tests that hold a validator or a checker against
// every single change (and a spread of paired changes) to each sample.

export type Json = unknown;

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
export function documentsFrom(sample: Json): { label: string; value: Json }[] {
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

