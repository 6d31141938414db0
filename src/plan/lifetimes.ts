// What a plan says about rule lifetimes (docs/behaviour.md, "Rules with a lifetime"): the rules
// whose declared state a lifetime changes within the next seven days, and why the plan changes
// the status of a rule whose lifetime decides it. Pure: the moment comes with the rules.
import { lifetimePhase, upcomingChange } from '../semantics/lifetime.js';
import type { DeclaredRule, SourceLocation } from '../semantics/model.js';
import type { PlanStep } from './types.js';

/**
 * `expires` / `activates`: the lifetime changes the rule's state at `at`, within the next seven
 * days. `expired` / `pending` / `activated`: this plan changes the rule's status because its
 * lifetime ended at `at`, has not begun (it begins at `at`), or began at `at`.
 */
type LifetimeEventKind = 'expires' | 'activates' | 'expired' | 'pending' | 'activated';

export interface LifetimeEvent {
  app: string;
  name: string;
  kind: LifetimeEventKind;
  /** The instant, ISO 8601 in UTC. */
  at: string;
  /** Where the file writes it (the `expires` or `activeFrom` key). */
  source: SourceLocation;
}

/** A plan's lifetime events and the moment they were judged at. */
export interface PlanLifetimes {
  /** The moment lifetimes were evaluated at (`--now`, else the time of planning), ISO 8601 in UTC. */
  evaluatedAt: string;
  events: LifetimeEvent[];
}

/** The lifetime events of one app's declared rules under its planned steps, in declared order. */
export function lifetimeEvents(app: string, declared: readonly DeclaredRule[], steps: readonly PlanStep[], now: number): LifetimeEvent[] {
  const newStatus = new Map(steps.flatMap((step) => step.changes.flatMap((change) => (change.field === 'status' ? [[step.name, change.after] as const] : []))));
  return declared.flatMap((rule) => {
    const lifetime = rule.lifetime;
    if (lifetime === undefined) return [];
    const events: LifetimeEvent[] = [];
    const event = (kind: LifetimeEventKind, bound: { time: number; at: SourceLocation }): LifetimeEvent =>
      ({ app, name: rule.name, kind, at: new Date(bound.time).toISOString(), source: bound.at });
    const phase = lifetimePhase(lifetime, now);
    const changedTo = newStatus.get(rule.name);
    if (changedTo === 'paused' && lifetime.status === 'active' && phase === 'after' && lifetime.expires !== undefined) events.push(event('expired', lifetime.expires));
    if (changedTo === 'paused' && lifetime.status === 'active' && phase === 'before' && lifetime.activeFrom !== undefined) events.push(event('pending', lifetime.activeFrom));
    if (changedTo === 'active' && phase === 'inside' && lifetime.activeFrom !== undefined) events.push(event('activated', lifetime.activeFrom));
    // A pause until activeFrom already says when the rule becomes active.
    const upcoming = upcomingChange(lifetime, now);
    if (upcoming !== undefined && !events.some((e) => e.kind === 'pending')) events.push(event(upcoming.change, upcoming));
    return events;
  });
}
