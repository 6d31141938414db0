// The Parquet one reading's maps read only by the keys the rules read (issue #37), as forms of
// the one reading's SQL (group-query.ts, parquet-source.ts) for bench/replay-parquet-work.js and
// bench/replay-key-instructions.js: each map's entries filtered to those keys (by the key's byte
// length, then a bit per hash of the key, lower-cased for headers: every entry a rule reads kept,
// in order, and every NULL value, so two records alike there are decided alike), the query's and
// custom parameters' read keys taken one by one (map_extract; the headers' whole text kept), the
// maps grouped as maps (exact, no text), and a bound: the headers one text, the query by its read keys.

/** A map column's JSON text as the records give it (parquet-source.ts), for each map field. */
export const MAP_FIELDS = ['headers', 'query', 'custom'];
export const mapJson = (field) => `CAST(to_json("${field}") AS VARCHAR) AS "${field}"`;
/** The one reading's keys of the maps' texts (group-query.ts). */
export const MAP_KEYS = 'CAST(t."headers" AS VARCHAR) AS k8, CAST(t.query AS VARCHAR) AS k9, CAST(t."custom" AS VARCHAR) AS k10, t.botrules_qpath AS k9q';

/** The names each map field's rules read (header names lower-cased, as the js reader reads them). */
export function namesRead(rules) {
  const fieldOf = { header: 'headers', queryParam: 'query', customParam: 'custom' };
  const names = { headers: new Set(), query: new Set(), custom: new Set() };
  const walk = (node) => {
    if (node.children !== undefined) node.children.forEach(walk);
    else if (fieldOf[node.conditionType] !== undefined) names[fieldOf[node.conditionType]].add(node.conditionType === 'header' ? (node.fieldOption ?? '').toLowerCase() : (node.fieldOption ?? ''));
  };
  for (const rule of rules) walk(rule.conditions);
  return Object.fromEntries(Object.entries(names).map(([field, set]) => [field, [...set]]));
}

const HASH_BITS = 4096;
const quote = (text) => `'${text.replaceAll("'", "''")}'`;

/** Per map field, a bit per hash bucket (DuckDB's hash, of the names as the keys are folded) holding a name read. */
export async function hashBits(connection, runAndReadAll, names) {
  const bits = {};
  for (const [field, list] of Object.entries(names)) {
    const set = new Array(HASH_BITS).fill('0');
    if (list.length > 0) {
      const rows = (await runAndReadAll.call(connection, `SELECT CAST(hash(n) % ${HASH_BITS} AS INTEGER) FROM (SELECT unnest([${list.map(quote).join(', ')}]) AS n)`)).getRows();
      for (const [bucket] of rows) set[bucket] = '1';
    }
    bits[field] = set.join('');
  }
  return bits;
}

/** A map's entries that a rule may read (its key's byte length, then its hash bucket) and those with a NULL value, as JSON text. */
function keysFiltered(field, names, bits) {
  const key = field === 'headers' ? 'lower(e.key)' : 'e.key';
  // A header's key that JavaScript lower-cases to a name: each letter in either case, and a `k` also
  // as U+212A KELVIN SIGN (the one code point it lower-cases into ASCII), two bytes longer in UTF-8.
  const spellings = (name) => (field === 'headers' ? (name.match(/k/g) ?? []).length : 0);
  const lengths = [...new Set(names.flatMap((name) => Array.from({ length: spellings(name) + 1 }, (_, kelvins) => Buffer.byteLength(name) + 2 * kelvins)))];
  const read = lengths.length === 0 ? 'FALSE'
    : `CASE WHEN strlen(e.key) IN (${lengths.join(', ')}) THEN get_bit('${bits}'::BIT, CAST(hash(${key}) % ${HASH_BITS} AS INTEGER)) = 1 ELSE FALSE END`;
  return `CAST(to_json(list_filter(map_entries("${field}"), e -> e.value IS NULL OR ${read})) AS VARCHAR) AS "${field}"`;
}

/** A map's read keys taken one by one, as JSON text; the whole map's text where a value is NULL. */
function keysExtracted(field, names) {
  const parts = names.map((name) => `CASE WHEN "${field}"[${quote(name)}] IS NOT NULL THEN ${quote(`${JSON.stringify(name)}:`)} || CAST(to_json("${field}"[${quote(name)}]) AS VARCHAR) END`);
  const text = parts.length === 0 ? "'{}'" : `'{' || concat_ws(',', ${parts.join(', ')}) || '}'`;
  return `CASE WHEN len(list_filter(map_values("${field}"), v -> v IS NULL)) > 0 THEN ${mapJson(field).replace(/ AS "\w+"$/, '')} ELSE ${text} END AS "${field}"`;
}

/** The forms of the maps read only by the keys the rules read. */
export function keyForms(sql, { names, bits }) {
  const filtered = MAP_FIELDS.reduce((form, field) => form.replace(mapJson(field), keysFiltered(field, names[field], bits[field])), sql);
  const extracted = ['query', 'custom'].reduce((form, field) => form.replace(mapJson(field), keysExtracted(field, names[field])), sql);
  const asMaps = MAP_FIELDS.reduce((form, field) => form.replace(mapJson(field), `"${field}" AS "${field}"`), sql)
    .replace(MAP_KEYS, 't."headers" AS k8, t.query AS k9, t."custom" AS k10, t.botrules_qpath AS k9q');
  const bound = extracted.replace(mapJson('headers'), 'CASE WHEN "headers" IS NOT NULL THEN \'{}\' END AS "headers"');
  return [
    ["maps by the keys rules read: entries filtered (exact)", filtered],
    ["maps by the keys rules read: query's and custom's read keys one by one (exact)", extracted],
    ['maps grouped as maps, no text (exact)', asMaps],
    ["maps by the keys rules read, bound: headers one text, query's read keys", bound],
  ];
}

