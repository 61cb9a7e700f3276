/**
 * How a channel receives one kind of notice (the rule for each lives in
 * src/core/pacing/pacing-settings.ts): `auto` (the default for supporters), `live`,
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
