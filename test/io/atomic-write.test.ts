// The atomic write (src/io/atomic-write.ts, on write-file-atomic): the target is replaced whole,
// with the mode asked for less the umask, no temporary file stays beside it, and nothing is
// written through a symbolic link.
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../src/io/atomic-write.js';
import { tempDir } from '../helpers/temp.js';

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves nothing else in its directory', async () => {
    const dir = tempDir();
    const file = join(dir, 'plan.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, '{"new":true}\n', '--out');
    expect(readFileSync(file, 'utf8')).toBe('{"new":true}\n');
    expect(readdirSync(dir)).toEqual(['plan.json']);
  });

  it('gives a new file the mode asked for, less the umask, whatever the file it replaces had', async () => {
    const dir = tempDir();
    const secret = join(dir, 'exports.env');
    writeFileSync(secret, 'old', { mode: 0o644 });
    await writeFileAtomic(secret, 'export TOKEN=x\n', '--exports-file', secret, 0o600);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    const plain = join(dir, 'plan.json');
    await writeFileAtomic(plain, '{}\n', '--out');
    expect(statSync(plain).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('refuses a symbolic link and leaves its target as it was', async () => {
    const dir = tempDir();
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'kept');
    symlinkSync(target, join(dir, 'link.json'));
    await expect(writeFileAtomic(join(dir, 'link.json'), 'x', '--out', 'link.json')).rejects.toThrow('cannot write --out link.json: it is a symbolic link, and botrules never writes through one');
    expect(readFileSync(target, 'utf8')).toBe('kept');
  });
});
