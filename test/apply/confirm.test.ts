// The confirmation prompt: only "yes" goes ahead, one line is read, and a closed input
// counts as no.
import { PassThrough, Readable } from 'node:stream';
import { confirm } from '../../src/apply/confirm.js';

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (b: Buffer) => chunks.push(b));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('confirm', () => {
  it.each([
    ['yes\n', true],
    ['  yes  \r\n', true],
    ['Yes\n', false],
    ['y\n', false],
    ['', false],
    ['no\nyes\n', false],
  ])('answer %j → %s', async (input, expected) => {
    const out = sink();
    expect(await confirm('Apply?', Readable.from([input]), out.stream)).toBe(expected);
    expect(out.text()).toBe('Apply? ');
  });
});

describe('reading the answer', () => {
  it('joins chunks until the line break', async () => {
    expect(await confirm('Apply?', Readable.from(['ye', 's', '\nrest']), sink().stream)).toBe(true);
  });

  it('takes the text of an input that ends without a line break', async () => {
    expect(await confirm('Apply?', Readable.from(['yes']), sink().stream)).toBe(true);
  });

  it('fails with the error of an input that breaks', async () => {
    const input = new PassThrough();
    const answer = confirm('Apply?', input, sink().stream);
    input.destroy(new Error('EIO: the terminal went away'));
    await expect(answer).rejects.toThrow('EIO: the terminal went away');
  });
});

describe('an interrupt while asking', () => {
  it('is a "no", and stops reading the input', async () => {
    const input = new PassThrough();
    const controller = new AbortController();
    const answer = confirm('Apply?', input, sink().stream, controller.signal);
    controller.abort();
    expect(await answer).toBe(false);
    expect(input.listenerCount('data')).toBe(0);
    expect(input.isPaused()).toBe(true);
  });
});
