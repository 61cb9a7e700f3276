import { localTime, type QuietHours } from '../core/index.js';
import type { NoticeKind } from '../domain/events.js';
import { defaultBatchIntervalMs, defaultPacing } from '../domain/pacing-modes.js';
import type { ChannelProfile } from './channel-directory.js';

const hourMs = 3_600_000;

// The pacing rules, applied here (the channel's chosen pacing is stored by core/settings/pacing-settings.ts).
/** `auto`: live while the channel got fewer than this many messages of the kind (live or batches) in the last hour. */
export const autoLiveLimit = 4;
/** `auto`: the batch interval once the channel is busy. 6 an hour: at most 144 a day plus the live ones. */
export const autoBatchIntervalMs = 10 * 60_000;

const minuteMs = 60_000;

/**
 * The quiet-hours window containing `now`, or undefined outside quiet hours. The
 * window's start is the same for every moment inside it (it names the held batch),
 * so it is found from the minute of the day on the zone's clock; on the night a
 * zone changes to or from summer time the window is an hour longer or shorter.
 */
export function quietWindowAt(
  quiet: QuietHours | undefined,
  now: number,
): { start: number; end: number } | undefined {
  if (!quiet || quiet.startMinute === quiet.endMinute) return undefined;
  const length = (((quiet.endMinute - quiet.startMinute) % 1440) + 1440) % 1440;
  const minuteStart = Math.floor(now / minuteMs) * minuteMs;
  const { minuteOfDay } = localTime(minuteStart, quiet.timeZone ?? 'UTC');
  const elapsed = (((minuteOfDay - quiet.startMinute) % 1440) + 1440) % 1440;
  if (elapsed >= length) return undefined;
  const start = minuteStart - elapsed * minuteMs;
  return { start, end: start + length * minuteMs };
}

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
