import { z } from 'zod';
import type { KeyValueStore } from '../../lib/store.js';
import type { ChannelRef } from '../ports.js';
import { channelSettingKey } from './channel-settings-keys.js';

/** The campaign's end as an admin set it for a project in a channel (`/deadline <date>`). */
export interface CampaignDeadline {
  /** The day as typed, `YYYY-MM-DD`: the campaign ends at the end of it. */
  readonly date: string;
  /** The zone the day was read in (the channel's). */
  readonly timeZone: string;
  /** Epoch ms of the end: the local midnight after `date`. */
  readonly endsAt: number;
}

export const rollCallCadences = ['weekly', 'monthly'] as const;
export type RollCallCadence = (typeof rollCallCadences)[number];

/** A channel's roll-call (`/rollcall weekly|monthly`), and since when: the first one names the supporters since then. */
export interface RollCallSetting {
  readonly cadence: RollCallCadence;
  readonly since: number;
}

/**
 * The two campaign settings of a channel (issue 32, items 4 and 5), one small key each, absent when off:
 * `settings/deadline/<channel>/<project>` (the API knows no end date) and `settings/roll-call/<channel>`.
 * The goal-pace alerts and the roll-call (src/digest) read the same keys.
 */
export interface CampaignSettings {
  deadlineOf(channel: ChannelRef, project: string): Promise<CampaignDeadline | undefined>;
  /** `undefined` clears it. */
  setDeadline(channel: ChannelRef, project: string, deadline: CampaignDeadline | undefined): Promise<void>;
  rollCallOf(channel: ChannelRef): Promise<RollCallSetting | undefined>;
  /** `undefined` turns it off. */
  setRollCall(channel: ChannelRef, setting: RollCallSetting | undefined): Promise<void>;
}

const deadlineSchema = z.object({ date: z.string(), timeZone: z.string(), endsAt: z.number() });
const rollCallSchema = z.object({ cadence: z.enum(rollCallCadences), since: z.number() });

/** {@link CampaignSettings} on the injected store. */
export function createCampaignSettings(store: KeyValueStore): CampaignSettings {
  const deadlineKey = (channel: ChannelRef, project: string) =>
    `${channelSettingKey('deadline', channel)}/${encodeURIComponent(project)}`;
  const rollCallKey = (channel: ChannelRef) => channelSettingKey('rollCall', channel);
  return {
    deadlineOf: (channel, project) => store.get(deadlineKey(channel, project), deadlineSchema),
    async setDeadline(channel, project, deadline) {
      if (deadline === undefined) await store.delete(deadlineKey(channel, project));
      else await store.set(deadlineKey(channel, project), deadline);
    },
    rollCallOf: (channel) => store.get(rollCallKey(channel), rollCallSchema),
    async setRollCall(channel, setting) {
      if (setting === undefined) await store.delete(rollCallKey(channel));
      else await store.set(rollCallKey(channel), setting);
    },
  };
}
