// The options plan and apply declare alike, defined once (a module of their own, so that neither
// command loads the other's).
import { REPLAY_ENGINES } from '../engine/replay.js';
import { wholeNumber } from './options.js';

export const ENGINE_OPTION = { choices: REPLAY_ENGINES, default: 'js', describe: 'Where --replay decides the requests: js, or duckdb (an embedded DuckDB; docs/replay.md, "Engines")' } as const;
export const TRANSITION_BUDGET_OPTION = { type: 'number', requiresArg: true, coerce: wholeNumber('--transition-budget', 0), describe: 'Seconds the check of the states between PATCH requests may take (default 10; 0 turns it off)' } as const;
