// The exit codes every command ends with are one table, and it is the contract's
// (docs/behaviour.md, "Exit codes").
import { EXIT, foundOrOk, INTERRUPT_EXIT_CODES } from '../../src/exit-codes.js';
import { definedFields } from '../../src/defined.js';

describe('the exit-code table', () => {
  it('holds the codes docs/behaviour.md promises, and 128 + the signal for an interrupt', () => {
    expect(EXIT).toEqual({ ok: 0, failed: 1, found: 2, failOnMatched: 3 });
    expect(INTERRUPT_EXIT_CODES).toEqual({ SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });
  });

  it('says 2 when a command found what it looks for, else 0', () => {
    expect(foundOrOk(true)).toBe(2);
    expect(foundOrOk(false)).toBe(0);
  });
});

describe('definedFields', () => {
  it('keeps the fields that have a value, in their order, and leaves out the undefined ones', () => {
    const fields = definedFields({ out: 'plan.json', app: undefined, count: 0, empty: '', none: null });
    expect(fields).toEqual({ out: 'plan.json', count: 0, empty: '', none: null });
    expect(Object.keys(fields)).toEqual(['out', 'count', 'empty', 'none']);
    expect('app' in fields).toBe(false);
  });
});
