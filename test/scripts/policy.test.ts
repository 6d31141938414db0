import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError, ValidationError, formatProblem, sortProblems } from '../../src/errors.js';
import { findPolicy, loadPolicy } from '../../src/scripts/policy.js';
import { compileGlob, compilePolicy, markRecord, type Policy, type PolicyEntry } from '../../src/scripts/policy-match.js';

const NOW = Date.UTC(2025, 5, 15, 12); // 2025-06-15T12:00Z
const SOURCE = { file: 'scripts-policy.yaml', line: 1, col: 1 };

function policy(...entries: Omit<PolicyEntry, 'source' | 'justification' | 'owner'>[]): Policy {
  return { file: 'scripts-policy.yaml', entries: entries.map((e) => ({ justification: 'needed', owner: 'web', source: SOURCE, ...e })) };
}

describe('policy matching', () => {
  it('approves by exact id', () => {
    const match = compilePolicy(policy({ id: 'https://js.stripe.com/v3/' }), NOW);
    expect(match({ id: 'https://js.stripe.com/v3/' })).toEqual({ approved: true, approvedBy: 'id: https://js.stripe.com/v3/' });
    expect(match({ id: 'https://js.stripe.com/v3/x.js' })).toEqual({ approved: false });
  });

  it('approves by URL glob, where * spans any characters and the rest is literal', () => {
    const match = compilePolicy(policy({ pattern: 'https://js.stripe.com/*' }), NOW);
    expect(match({ id: 'https://js.stripe.com/v3/fingerprinted/out.js' }).approved).toBe(true);
    expect(match({ id: 'https://js.stripe.com.evil.example/v3' }).approved).toBe(false);
    expect(match({ id: 'http://js.stripe.com/v3' }).approved).toBe(false);
    expect(match({}).approved).toBe(false);
    expect(compileGlob('https://a.example/?x=(1)+[2]*')('https://a.example/?x=(1)+[2]/anything')).toBe(true);
    expect(compileGlob('https://a.example/?x')('https://a.example/yx')).toBe(false);
  });

  it('approves by vendor, ignoring case and surrounding spaces', () => {
    const match = compilePolicy(policy({ vendor: 'Google' }), NOW);
    expect(match({ vendor: ' google ' })).toEqual({ approved: true, approvedBy: 'vendor: Google' });
    expect(match({ vendor: 'Googlebot' }).approved).toBe(false);
  });

  it('treats an approval as valid through its expiry day (UTC) and expired after it', () => {
    const entry = { pattern: 'https://cdn.example/*', expires: '2025-06-15' };
    expect(compilePolicy(policy(entry), Date.UTC(2025, 5, 15, 23, 59))({ id: 'https://cdn.example/a.js' }).approved).toBe(true);
    expect(compilePolicy(policy(entry), Date.UTC(2025, 5, 16))({ id: 'https://cdn.example/a.js' })).toEqual({
      approved: false,
      approvalNote: 'approval (pattern: https://cdn.example/*) expired on 2025-06-15',
    });
  });

  it('uses the first entry that matches and has not expired', () => {
    const match = compilePolicy(policy({ vendor: 'Acme', expires: '2024-01-01' }, { id: 'https://acme.example/a.js' }), NOW);
    expect(match({ id: 'https://acme.example/a.js', vendor: 'Acme' })).toEqual({ approved: true, approvedBy: 'id: https://acme.example/a.js' });
  });

  it('replaces a stale verdict when marking a record again', () => {
    const match = compilePolicy(policy({ vendor: 'Acme' }), NOW);
    expect(markRecord({ key: 'k', vendor: 'Other', approved: true, approvedBy: 'old' } as never, match)).toEqual({ key: 'k', vendor: 'Other', approved: false });
  });
});

describe('loading scripts-policy.yaml', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'botrules-policy-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function problemsOf(text: string): Promise<string[]> {
    await writeFile(join(dir, 'scripts-policy.yaml'), text);
    try {
      await loadPolicy(join(dir, 'scripts-policy.yaml'), dir);
    } catch (err) {
      if (err instanceof ValidationError) return sortProblems(err.problems).map(formatProblem);
      throw err;
    }
    throw new Error('expected the policy to be refused');
  }

  it('loads entries with their locations', async () => {
    await writeFile(join(dir, 'scripts-policy.yaml'), [
      'approved:',
      '  - pattern: "https://js.stripe.com/*"',
      '    justification: Card payments',
      '    owner: payments',
      '    expires: 2026-01-31',
      '  - vendor: Google',
      '    justification: Tag manager',
      '    owner: marketing',
      '',
    ].join('\n'));
    const loaded = await loadPolicy(join(dir, 'scripts-policy.yaml'), dir);
    expect(loaded.file).toBe('scripts-policy.yaml');
    expect(loaded.entries).toEqual([
      { pattern: 'https://js.stripe.com/*', justification: 'Card payments', owner: 'payments', expires: '2026-01-31', source: { file: 'scripts-policy.yaml', line: 2, col: 5 } },
      { vendor: 'Google', justification: 'Tag manager', owner: 'marketing', source: { file: 'scripts-policy.yaml', line: 6, col: 5 } },
    ]);
  });

  it('reports every problem as FILE:LINE:COL', async () => {
    const problems = await problemsOf([
      'approved:',
      '  - id: https://a.example/a.js',
      '    owner: web',
      '  - pattern: https://b.example/*',
      '    vendor: B',
      '    justification: b',
      '    owner: web',
      '  - justification: "  "',
      '    owner: web',
      '  - vendor: C',
      '    justification: c',
      '    owner: web',
      '    expires: 2025-02-30',
      '  - vendor: D',
      '    justification: d',
      '    owner: web',
      '    expires: next year',
      '    note: extra',
      '',
    ].join('\n'));
    expect(problems).toEqual([
      'scripts-policy.yaml:2:5: missing "justification" in approved entry 1',
      'scripts-policy.yaml:5:5: an approved entry has exactly one of id, pattern or vendor; this one has pattern and vendor: split it into separate entries',
      'scripts-policy.yaml:8:5: an approved entry needs one of id, pattern or vendor to say which scripts it approves',
      'scripts-policy.yaml:8:20: justification must say why the script is needed; it is empty',
      'scripts-policy.yaml:13:14: expires 2025-02-30 is not a calendar date',
      'scripts-policy.yaml:17:14: expires "next year" must be a date written YYYY-MM-DD',
      'scripts-policy.yaml:18:5: unknown key "note" in approved entry 5 (allowed: id, pattern, vendor, justification, owner, expires)',
    ]);
  });

  it('locates YAML syntax errors', async () => {
    const problems = await problemsOf('approved:\n  - vendor: [unclosed\n');
    expect(problems[0]).toMatch(/^scripts-policy.yaml:\d+:\d+: invalid YAML/);
  });

  it('asks for the approved list', async () => {
    expect(await problemsOf('scripts: []\n')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^scripts-policy.yaml:1:1: the policy file needs an `approved:` list/)]),
    );
  });

  it('uses scripts-policy.yaml in the working directory when present, and none otherwise', async () => {
    expect(await findPolicy(undefined, dir)).toBeUndefined();
    await writeFile(join(dir, 'scripts-policy.yaml'), 'approved: []\n');
    expect(await findPolicy(undefined, dir)).toEqual({ file: 'scripts-policy.yaml', entries: [] });
  });

  it('refuses a --policy file that does not exist', async () => {
    await expect(findPolicy('missing.yaml', dir)).rejects.toThrow(UserError);
    await expect(findPolicy('missing.yaml', dir)).rejects.toThrow('policy file missing.yaml does not exist');
  });
});

describe('URL globs are matched in linear time', () => {
  /** The textbook reading of a star glob, as a regular expression: right, but slow on long text. */
  const reference = (glob: string, text: string) =>
    new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`, 's').test(text);

  it('agrees with the regular-expression reading on any glob and text', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '.', '*');
    fc.assert(fc.property(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 12 }),
      (glob, text) => compileGlob(glob)(text) === reference(glob, text)), { numRuns: 2000 });
  });

  it('four stars against a 10 kB URL that almost matches end at once (a backtracking regex takes minutes)', () => {
    const url = `https://cdn.example/${'a'.repeat(10_000)}`;
    const match = compilePolicy(policy({ pattern: 'https://*a*a*a*b' }), NOW);
    expect(match({ id: url }).approved).toBe(false);
    expect(match({ id: `${url}b` }).approved).toBe(true);
  });
});
