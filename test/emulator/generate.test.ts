// Generated data: deterministic per seed, valid (every generated rule passes the same
// checks a PATCH gets), realistic scripts with unique keys and offset timestamps.
import { checkPatchBody } from '../../src/emulator/validate-patch.js';
import { generateRules } from '../../src/emulator/generate-rules.js';
import { generateScripts, isoWithOffset } from '../../src/emulator/generate-scripts.js';
import { seededRandom } from '../../src/emulator/random.js';
import { CONDITION_TYPES, LEAF_OPERATORS } from '../../src/semantics/model.js';

const NOW = Date.parse('2024-06-15T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

test('rules: the same seed gives the same rules, another seed others', () => {
  expect(generateRules(seededRandom(5), 30)).toEqual(generateRules(seededRandom(5), 30));
  expect(generateRules(seededRandom(5), 30)).not.toEqual(generateRules(seededRandom(6), 30));
});

test('rules: valid, uniquely named, and covering every condition type and operator', () => {
  const rules = generateRules(seededRandom(1), 200);
  for (const { name, ...fields } of rules) {
    expect(checkPatchBody({ name, ...fields }, 1)).toEqual({ name, ...fields });
    expect(name).toMatch(/^Generated rule \d{4} — \S/);
  }
  expect(new Set(rules.map((r) => r.name)).size).toBe(200);
  const leaves = rules.flatMap((r) => r.conditions.children.flatMap((g) => g.children));
  expect(new Set(leaves.map((l) => l.conditionType))).toEqual(new Set(CONDITION_TYPES));
  expect(new Set(leaves.map((l) => l.operator))).toEqual(new Set(LEAF_OPERATORS));
  expect(new Set(rules.map((r) => r.status))).toEqual(new Set(['active', 'paused']));
});

test('scripts: deterministic, on the given apps and hosts, seen within the last 30 days', () => {
  const options = { count: 300, appIds: ['app-1', 'app-2'], tlds: ['shop.example.com', 'example.org'], now: NOW };
  const scripts = generateScripts(seededRandom(3), options);
  expect(generateScripts(seededRandom(3), options)).toEqual(scripts);
  expect(new Set(scripts.map((s) => s.key)).size).toBe(300);
  expect(new Set(scripts.map((s) => s.app_id))).toEqual(new Set(options.appIds));
  for (const s of scripts) {
    expect(s.host_domain).toMatch(/(^|\.)(shop\.example\.com|example\.org)$/);
    expect(s.id).toMatch(/^https:\/\//);
    expect(s.first_seen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    const first = Date.parse(s.first_seen as string);
    const last = Date.parse(s.last_seen as string);
    expect(first).toBeGreaterThanOrEqual(NOW - 30 * DAY);
    expect(last).toBeGreaterThanOrEqual(first);
    expect(last).toBeLessThanOrEqual(NOW);
    expect(['low', 'medium', 'high', 'critical']).toContain(s.risk?.level);
    expect(s.risk?.reason).toEqual(expect.any(String));
    expect(s.page_types?.length).toBeGreaterThan(0);
    expect(s.users_affected_percentage).toBeGreaterThanOrEqual(0);
    expect(s.users_affected_percentage).toBeLessThanOrEqual(100);
  }
  expect(new Set(scripts.map((s) => s.vendor)).size).toBeGreaterThan(8);
  expect(new Set(scripts.map((s) => s.risk?.level)).size).toBe(4);
});

test('timestamps carry their offset and denote the same instant', () => {
  const instant = Date.parse('2024-06-15T12:00:00.000Z');
  expect(isoWithOffset(instant, 120)).toBe('2024-06-15T14:00:00.000+02:00');
  expect(isoWithOffset(instant, -300)).toBe('2024-06-15T07:00:00.000-05:00');
  expect(isoWithOffset(instant, 330)).toBe('2024-06-15T17:30:00.000+05:30');
  expect(Date.parse(isoWithOffset(instant, 330))).toBe(instant);
});
