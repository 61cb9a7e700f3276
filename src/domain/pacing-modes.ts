import type { NoticeKind } from './events.js';

/**
 * How a channel receives one kind of notice (the rules: src/delivery/placement.ts; the stored choice:
 * src/core/settings/pacing-settings.ts): `auto` (the default for supporters), `live`,
 * `batched` (one message per interval), `hourly`, `digest` (only the daily digest).
 * Here, in the domain, because the command definitions offer them as choices.
 */
export const pacingModes = ['auto', 'live', 'batched', 'hourly', 'digest'] as const;
export type PacingMode = (typeof pacingModes)[number];

/** The notice kinds a channel can pace: every kind but the digest itself. */
export const pacedKinds = ['supporters', 'wall', 'blog', 'milestones', 'rewards'] as const;
export type PacedKind = (typeof pacedKinds)[number];

/** `batched <minutes>`: at least one minute, at most a day. */
export const batchMinutesRange = { min: 1, max: 1_440 } as const;

/** `batched` without an interval: 5 minutes. */
export const defaultBatchIntervalMs = 5 * 60_000;

/** How a channel receives one kind of notice (core/settings/pacing-settings.ts stores it). */
export interface KindPacing {
  readonly mode: PacingMode;
  /** The batch interval for `batched` (ms). */
  readonly intervalMs?: number;
}

/** The pacing of a kind nobody chose: `auto` for supporters, `live` for the rare kinds. */
export function defaultPacing(kind: NoticeKind): KindPacing {
  return kind === 'supporters' ? { mode: 'auto' } : { mode: 'live' };
}
