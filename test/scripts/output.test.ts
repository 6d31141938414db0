import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { UserError } from '../../src/errors.js';
import { openOutput } from '../../src/scripts/output.js';

describe('report output', () => {
  let dir: string;
  const stdout = new PassThrough();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'botrules-out-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a file only when committed, through a temporary file', async () => {
    const output = await openOutput('snap.json', { cwd: dir, stdout });
    await output.emit('{"part":');
    expect(await readdir(dir)).toEqual([expect.stringMatching(/^\.snap\.json\..*\.partial$/)]);
    await output.emit('1}\n');
    await output.commit();
    expect(await readdir(dir)).toEqual(['snap.json']);
    expect(await readFile(join(dir, 'snap.json'), 'utf8')).toBe('{"part":1}\n');
  });

  it('leaves nothing behind, and an older file untouched, when aborted', async () => {
    await writeFile(join(dir, 'snap.json'), 'last week');
    const output = await openOutput('snap.json', { cwd: dir, stdout });
    await output.emit('half a snap');
    await output.abort();
    expect(await readdir(dir)).toEqual(['snap.json']);
    expect(await readFile(join(dir, 'snap.json'), 'utf8')).toBe('last week');
  });

  it('says why a file cannot be written', async () => {
    await expect(openOutput('missing/snap.json', { cwd: dir, stdout })).rejects.toThrow(UserError);
    await expect(openOutput('missing/snap.json', { cwd: dir, stdout })).rejects.toThrow(/^cannot write --out missing\/snap.json: its directory .*missing does not exist$/);
  });

  it('writes to stdout without --out', async () => {
    const chunks: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (b: Buffer) => chunks.push(b.toString()));
    const output = await openOutput(undefined, { cwd: dir, stdout: sink });
    await output.emit('line\n');
    await output.commit();
    expect(chunks.join('')).toBe('line\n');
    expect(output.file).toBeUndefined();
  });
});
