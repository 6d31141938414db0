// The stream guard under GitHub Actions: whatever chunks botrules writes, no line reaches the
// job log as a workflow command unless botrules made it one.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { guardWorkflowCommands, writeWorkflowCommand } from '../../src/cli/workflow-guard.js';

function capture(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** What the runner would treat as a command: `::` after leading spaces, or `##[` anywhere. */
function commandLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trimStart().startsWith('::') || line.includes('##['));
}

function through(chunks: readonly string[]): string {
  const out = capture();
  const guarded = guardWorkflowCommands(out.stream);
  for (const chunk of chunks) guarded.write(chunk);
  guarded.end();
  return out.text();
}

describe('guardWorkflowCommands', () => {
  test('defuses commands at line starts and the old form anywhere, visibly', () => {
    expect(through(['ok\n::error::x\n  ::add-mask::y\nname ##[set-output name=a]b\n'])).toBe('ok\n\\::error::x\n  \\::add-mask::y\nname #\\u0023[set-output name=a]b\n');
  });

  test('a command split across writes is defused too', () => {
    expect(through(['a\n', ':', ':stop-commands::t\n', '#', '#[x]\n'])).toBe('a\n\\::stop-commands::t\n#\\u0023[x]\n');
    expect(through(['  ', ':', ':warning::w'])).toBe('  \\::warning::w');
  });

  test('text that only looks close passes unchanged, with its held tail flushed at the end', () => {
    expect(through(['a::b\n', ': x\n', '#tag', ':'])).toBe('a::b\n: x\n#tag:');
  });

  test('its own workflow commands pass through unguarded', () => {
    const out = capture();
    const guarded = guardWorkflowCommands(out.stream);
    guarded.write('line\n');
    writeWorkflowCommand(guarded, '::error file=a.yaml,line=1,col=1::bad');
    guarded.end();
    expect(out.text()).toBe('line\n::error file=a.yaml,line=1,col=1::bad\n');
  });

  test('for any text cut into any chunks, no command line gets through and nothing else changes', () => {
    const piece = fc.constantFrom('::', ':', '#', '##[', '[', '\n', ' ', 'x', 'error', '::add-mask::');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(30), { maxLength: 5 }), (pieces, cuts) => {
        const text = pieces.join('');
        const points = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => text.slice(start, points[i] ?? text.length)).filter((c) => c !== '');
        const out = through(chunks);
        expect(commandLines(out)).toEqual([]);
        expect(out.replace(/\\(?=::)/g, '').replace(/#\\u0023\[/g, '##[')).toBe(text);
      }),
    );
  });
});
