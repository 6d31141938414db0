// The command context's stderr lines: debug and notice lines quote what a server or a file said,
// so both show control characters as visible escapes.
import { PassThrough, Readable } from 'node:stream';
import { createContext, type CliIo } from '../../src/cli/context.js';

function io(): { io: CliIo; err: () => string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const stdout = new PassThrough();
  return {
    io: { stdout, stderr, stdin: Readable.from(['']), stdoutIsTTY: false, stderrIsTTY: false, env: {}, cwd: process.cwd() } as unknown as CliIo,
    err: () => text,
  };
}

describe('context lines on stderr', () => {
  it('notice and debug lines neutralise escape sequences and line breaks', () => {
    const { io: streams, err } = io();
    const ctx = createContext(streams, { color: false, verbose: true });
    ctx.notice('retrying GET /x after 503 \u001b[2J\n::error::forged');
    ctx.debug('GET \u001b]0;title\u0007');
    // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
    expect(err()).not.toMatch(/\u001b|\u0007/);
    expect(err().split('\n').some((line) => line.startsWith('::'))).toBe(false);
    expect(err()).toContain('\\x1b[2J');
  });
});
