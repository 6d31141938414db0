// Every src/ or test/ path a comment, a document, a workflow or a configuration cites exists, so
// a moved or renamed file cannot leave its old path behind (CONTRIBUTING.md, "What a change
// comes with"). CHANGELOG.md is history and keeps the paths of its time.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, scannedFiles } from './scanned-files.js';

const SCANNED_DIRS = ['src', 'test', 'bench', 'scripts', 'docs', 'examples', '.github'];
const SCANNED_FILES = ['README.md', 'CONTRIBUTING.md', 'eslint.config.js', 'jest.config.js', 'package.json', 'action.yml'];
/** A path cited into src/ or test/: not preceded by a path character, so `dist/src/…` or `tests/…` are not. */
const CITED = /(?<![\w./-])(?:src|test)\/[\w./-]*/g;
/** Extensions of this project's files; a path with another (`.cs` in the GitHub runner's sources) is someone else's. */
const OWN_EXTENSION = /(?:^|\/)(?:[^/.]+|[^/]*\.(?:ts|js|mjs|json|md|ya?ml))$/;

/** The paths a text cites, without a sentence's closing full stop; a glob (`apply*`) or brace list is not a path. */
function citedPaths(text: string): string[] {
  return [...text.matchAll(CITED)].flatMap((match) => {
    const next = text[(match.index ?? 0) + match[0].length];
    if (next === '*' || next === '{' || next === '$') return [];
    const path = match[0].replace(/\.+$/, '');
    return path.startsWith('src/generated') || !OWN_EXTENSION.test(path.replace(/\/$/, '')) ? [] : [path];
  });
}

function exists(path: string): boolean {
  return existsSync(join(ROOT, path)) || (path.endsWith('.js') && existsSync(join(ROOT, path.replace(/\.js$/, '.ts'))));
}

describe('paths cited into src/ and test/', () => {
  const files = scannedFiles(SCANNED_DIRS, SCANNED_FILES);

  it('reads paths as they are cited', () => {
    expect(citedPaths('(src/io/atomic-write.ts). See src/render/, test/cli/apply*, src/{a,b}/ and dist/src/x.')).toEqual([
      'src/io/atomic-write.ts',
      'src/render/',
    ]);
    expect(citedPaths('- src/Runner.Sdk/ProcessInvoker.cs, StartReadStream')).toEqual([]);
  });

  it('every cited path exists', () => {
    const cited = files.flatMap((file) => citedPaths(readFileSync(file, 'utf8')).map((path) => ({ file: relative(ROOT, file), path })));
    expect(cited.length).toBeGreaterThan(200);
    const missing = cited.filter(({ path }) => !exists(path)).map(({ file, path }) => `${file}: ${path}`);
    expect(missing).toEqual([]);
  });
});
