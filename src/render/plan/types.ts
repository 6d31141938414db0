// What every plan renderer takes: the plan, somewhere to write, and colour helpers.
import type pc from 'picocolors';
import type { Plan } from '../../plan/plan.js';

/** picocolors helpers; a no-op instance (createColors(false)) when colour is off. */
export type Colors = ReturnType<typeof pc.createColors>;

/** A stream or anything with `write`: renderers never touch process.stdout themselves. */
export interface TextSink {
  write(chunk: string): unknown;
}

export interface PlanRenderOptions {
  colors: Colors;
}

export type PlanRenderer = (plan: Plan, out: TextSink, options: PlanRenderOptions) => void;
