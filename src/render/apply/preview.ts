// What apply shows before it asks: what the plan does to replayed traffic (apply --replay, or
// recorded by plan --replay --out), then the plan as text. Written synchronously, because
// apply's progress line starts right after it.
import type { Plan } from '../../plan/plan-value.js';
import { sharePercent } from '../../plan/traffic-limit.js';
import { plural } from '../../plural.js';
import type { RenderOptions, Sink } from '../contract.js';
import { renderText } from '../plan/text.js';
import { safeText } from '../sanitise.js';

export function renderApplyPreview(plan: Plan, sink: Sink, options: RenderOptions): void {
  for (const line of trafficLines(plan)) sink.write(`${line}\n`);
  renderText(plan, sink, options);
}

function trafficLines(plan: Plan): string[] {
  return plan.apps.flatMap(({ app, replay }) => {
    if (replay === undefined) return [];
    const share = replay.evaluated === 0 ? '' : ` (${sharePercent(replay.newlyBlocked / replay.evaluated)})`;
    return [safeText(`Replay for app ${app} of ${plural(replay.logs.length, 'log')}: ${replay.newlyBlocked} of ${plural(replay.evaluated, 'request')}${share} ` +
      'had no blocking outcome and would be blocked or challenged.')];
  });
}
