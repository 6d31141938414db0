// Every document a comment or a document refers to exists in the repository, with the section
// it names; no comment cites section numbers of documents that are not in the repository.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, scannedFiles } from './scanned-files.js';

const SCANNED_DIRS = ['src', 'test', 'bench', 'scripts', 'docs', '.github'];
const SCANNED_FILES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'action.yml'];
// Written in two parts so that this file does not match itself.
const OUTSIDE_CITATION = new RegExp(['contract', 'api\\.md'].map((name) => `${name} \\u00a7`).join('|'));
const DOC_REFERENCE = /docs\/([A-Za-z0-9_-]+\.md)((?:,\s*"[^"\n]+")*)/g;


function headingsOf(doc: string): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} +(.+?) *$/gm)].map((match) => match[1] as string));
}

interface Reference { file: string; doc: string; headings: string[] }

function referencesIn(file: string): Reference[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(DOC_REFERENCE)].map((match) => ({
    file: relative(ROOT, file),
    doc: match[1] as string,
    headings: [...(match[2] ?? '').matchAll(/"([^"\n]+)"/g)].map((quoted) => quoted[1] as string),
  }));
}

describe('references to documents', () => {
  const files = scannedFiles(SCANNED_DIRS, SCANNED_FILES);

  it('scans the source and the documents', () => {
    expect(files.some((file) => file.endsWith(join('src', 'cli', 'main.ts')))).toBe(true);
    expect(files.some((file) => file.endsWith(join('docs', 'behaviour.md')))).toBe(true);
  });

  it('no file cites section numbers of documents outside the repository', () => {
    const offenders = files.filter((file) => OUTSIDE_CITATION.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('every docs/ file and section named exists', () => {
    const references = files.flatMap(referencesIn);
    expect(references.length).toBeGreaterThan(40);
    const broken = references.flatMap(({ file, doc, headings }) => {
      if (!existsSync(join(ROOT, 'docs', doc))) return [`${file}: docs/${doc} does not exist`];
      const known = headingsOf(doc);
      return headings.filter((heading) => !known.has(heading)).map((heading) => `${file}: docs/${doc} has no section "${heading}"`);
    });
    expect(broken).toEqual([]);
  });
});
