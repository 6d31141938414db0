// The oracle of the compiled rule sets' property tests: both sets, compiled together, decide each
// request as the reference evaluator (src/evaluate/) decides it under each set alone.
import { expect } from '@jest/globals';
import { decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { compileRuleSets } from '../../src/replay/compiled.js';

export function expectDecidedAsReference(live: readonly NormalRule[], declared: readonly NormalRule[], requests: readonly TestRequest[]): void {
  const sets = compileRuleSets([live, declared]);
  for (const one of requests) {
    const [underLive, underDeclared] = sets.decide(one);
    expect(underLive).toEqual(decide(live, one));
    expect(underDeclared).toEqual(decide(declared, one));
  }
}
