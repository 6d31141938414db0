// What every plan renderer takes: the one renderer contract (../contract.ts) with the Plan
// and its Review as its model.
import type { ReviewedPlan } from './review.js';
import type { Renderer, RenderOptions, Sink } from '../contract.js';

export type { Colors } from '../contract.js';

/** A stream or anything with `write`: renderers never touch process.stdout themselves. */
export type TextSink = Sink;

export type PlanRenderOptions = RenderOptions;

export type PlanRenderer = Renderer<ReviewedPlan>;
