import {
  autoBatchIntervalMs,
  autoLiveLimit,
  defaultBatchIntervalMs,
  defaultPacing,
  quietWindowAt,
} from '../core/index.js';
import type { NoticeKind } from '../domain/events.js';
import type { ChannelProfile } from './channel-directory.js';

const hourMs = 3_600_000;

/** The window a held notice waits in: it names the batch, which is posted at `due`. */
export interface HoldWindow {
  readonly since: number;
  /** Epoch ms the batch is posted; infinite for a catch-up (posted when the bot can post again). */
  readonly due: number;
  readonly reason: 'paced' | 'quiet-hours' | 'no-access';
}

export type Placement =
  /** Posted now; `thread`: as a reply in the channel's daily thread. */
  | { readonly where: 'live'; readonly thread: boolean }
  /** Not posted (the kind is paced `digest`: the daily digest covers it). */
  | { readonly where: 'drop' }
  | { readonly where: 'hold'; readonly window: HoldWindow };

export interface PlacementInput {
  readonly kind: NoticeKind;
  /** A supporter notice (the only kind the daily thread takes). */
  readonly supporter: boolean;
  readonly profile: ChannelProfile;
  readonly now: number;
  /** Messages of this kind posted in the channel within the last hour, live or batches (`auto`). */
  readonly recentMessages: number;
  /** An `auto` batch of this channel, project and kind is open: later notices join it, in order. */
  readonly autoBatchOpen: boolean;
}

/**
 * Where one notice goes in one channel, now: the one rule of pacing, quiet hours and
 * held channels, pure so it is tested with numbers. In order:
 * - a channel the bot cannot post in holds everything for its catch-up;
 * - quiet hours hold everything until they end (one summary per kind);
 * - otherwise the kind's pacing: `live`; `digest` (dropped: the digest covers it);
 *   `hourly` and `batched` (one message per window); `auto` (the default for
 *   supporters): live while the channel got fewer than {@link autoLiveLimit} messages
 *   of the kind (live or batches) in the last hour, then batched every {@link autoBatchIntervalMs}.
 */
export function placeNotice(input: PlacementInput): Placement {
  const { profile, now, kind } = input;
  if (profile.cannotPost) {
    return { where: 'hold', window: { since: profile.cannotPost.since, due: Infinity, reason: 'no-access' } };
  }
  const quiet = quietWindowAt(profile.pacing.quiet, now);
  if (quiet) return { where: 'hold', window: { since: quiet.start, due: quiet.end, reason: 'quiet-hours' } };
  const window = (intervalMs: number): Placement => {
    const since = Math.floor(now / intervalMs) * intervalMs;
    return { where: 'hold', window: { since, due: since + intervalMs, reason: 'paced' } };
  };
  const live: Placement = { where: 'live', thread: input.supporter && profile.dailyThread };
  const chosen = profile.pacing.kinds[kind] ?? defaultPacing(kind);
  switch (chosen.mode) {
    case 'live':
      return live;
    case 'digest':
      return { where: 'drop' };
    case 'hourly':
      return window(hourMs);
    case 'batched':
      return window(chosen.intervalMs ?? defaultBatchIntervalMs);
    case 'auto':
      if (input.autoBatchOpen) return window(autoBatchIntervalMs);
      return input.recentMessages < autoLiveLimit ? live : window(autoBatchIntervalMs);
  }
}
