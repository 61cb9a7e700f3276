import { z } from 'zod';
import type { NoticeKind } from '../../domain/events.js';
import { type KindPacing, pacingModes } from '../../domain/pacing-modes.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { ChannelRef } from '../ports.js';
import { channelSettingKey } from './channel-settings-keys.js';

export {
  defaultBatchIntervalMs,
  defaultPacing,
  type KindPacing,
  type PacedKind,
  type PacingMode,
  pacedKinds,
  pacingModes,
} from '../../domain/pacing-modes.js';

/*
 * How a channel receives one kind of notice:
 * - `auto` (the default for supporters): live while the channel is quiet, batched once it is busy (the
 *   thresholds: src/delivery/placement.ts, where they are applied);
 * - `live`: each notice at once; `batched`: one message per interval holding everything
 *   in between; `hourly`: batched by the hour; `digest`: not posted (the daily digest covers it).
 */

/**
 * Quiet hours in minutes of the day on the clock of `timeZone` (UTC when absent);
 * `end` may be before `start` (over midnight).
 */
export interface QuietHours {
  readonly startMinute: number;
  readonly endMinute: number;
  /** An IANA time zone ("Europe/Berlin"); absent means UTC. */
  readonly timeZone?: string;
}

export interface ChannelPacing {
  readonly kinds: Readonly<Partial<Record<NoticeKind, KindPacing>>>;
  readonly quiet?: QuietHours;
}

const schema = z.object({
  kinds: z.record(
    z.string(),
    z.object({ mode: z.enum(pacingModes), intervalMs: z.number().int().positive().optional() }),
  ),
  quiet: z
    .object({
      startMinute: z.number().int(),
      endMinute: z.number().int(),
      timeZone: z.string().optional(),
    })
    .optional(),
}) as unknown as z.ZodType<ChannelPacing>;

/** Per-channel pacing and quiet hours, one small record (~100 bytes) per channel that set any. */
export interface PacingSettings {
  get(channel: ChannelRef): Promise<ChannelPacing>;
  setKind(channel: ChannelRef, kind: NoticeKind, pacing: KindPacing): Promise<ChannelPacing>;
  setQuiet(channel: ChannelRef, quiet: QuietHours | undefined): Promise<ChannelPacing>;
}

/** {@link PacingSettings} on the injected store (key `settings/pacing/<channel>`). */
export function createPacingSettings(store: KeyValueStore): PacingSettings {
  const key = (channel: ChannelRef) => channelSettingKey('pacing', channel);
  const get = async (channel: ChannelRef): Promise<ChannelPacing> =>
    (await store.get(key(channel), schema)) ?? { kinds: {} };
  return {
    get,
    async setKind(channel, kind, pacing) {
      const current = await get(channel);
      const next: ChannelPacing = { ...current, kinds: { ...current.kinds, [kind]: pacing } };
      await store.set(key(channel), next);
      return next;
    },
    async setQuiet(channel, quiet) {
      const { quiet: _old, ...rest } = await get(channel);
      const next: ChannelPacing = quiet ? { ...rest, quiet } : rest;
      await store.set(key(channel), next);
      return next;
    },
  };
}

/** The IANA name of a time zone as Intl spells it ("europe/berlin" → "Europe/Berlin"), or undefined if unknown. */
export function canonicalTimeZone(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Parses "22:00-07:00" (also "22-7", "22:00–07:00") into minutes of the day; undefined when malformed. */
export function parseQuietHours(text: string): Pick<QuietHours, 'startMinute' | 'endMinute'> | undefined {
  const match = /^\s*(\d{1,2})(?::(\d{2}))?\s*[-–—]\s*(\d{1,2})(?::(\d{2}))?\s*$/u.exec(text);
  if (!match) return undefined;
  const [h1, m1, h2, m2] = [match[1], match[2] ?? '0', match[3], match[4] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (h1 > 23 || h2 > 23 || m1 > 59 || m2 > 59) return undefined;
  return { startMinute: h1 * 60 + m1, endMinute: h2 * 60 + m2 };
}

/** "22:00-07:00 Europe/Berlin" (or "… UTC"). */
export function formatQuietHours(quiet: QuietHours): string {
  const hm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `${hm(quiet.startMinute)}-${hm(quiet.endMinute)} ${quiet.timeZone ?? 'UTC'}`;
}
