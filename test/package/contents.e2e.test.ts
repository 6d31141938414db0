// The packed tarball holds what the installed CLI points its users to: every document that
// `--help`, a usage line or an error message of src/cli/ cites (docs/*.md), and the schemas
// rule files reference. Read from `npm pack --dry-run`, the list npm itself would pack.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../github/workflow-files.js';

function packedFiles(): string[] {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(output) as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((file) => file.path);
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourcesUnder(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the packed tarball', () => {
  const files = packedFiles();

  it('holds every document the CLI cites', () => {
    const cited = new Set(sourcesUnder(path.join(REPO_ROOT, 'src', 'cli')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/docs\/[a-z-]+\.md/g)].map((m) => m[0])));
    expect([...cited].sort()).toEqual(['docs/behaviour.md', 'docs/evaluation.md', 'docs/replay.md', 'docs/security.md']);
    expect([...cited].filter((doc) => !files.includes(doc))).toEqual([]);
  });

  it('holds the schemas and the built CLI, and no sources or tests', () => {
    expect(files).toEqual(expect.arrayContaining(['bin/botrules.js', 'schemas/rules.schema.json', 'README.md', 'package.json']));
    expect(files.filter((file) => /^(src|test|tests|bench)\//.test(file))).toEqual([]);
  });
});
