import { z } from 'zod';
import { type ChannelRef, channelKey } from '../domain/channels.js';
import type { PaceWatchState } from '../domain/goal-pace.js';
import type { KeyValueStore } from '../lib/store.js';

/** Where the last roll-call of a channel ended: its period and its cut (epoch ms). */
export interface RollCallCursor {
  readonly period: string;
  readonly cut: number;
}

/**
 * The campaign checks' own state (issue 32), per project and channel, in the campaign store (`campaign/…`):
 * - `pace-alerts/<project>/<channel>`: the goal-pace verdict the channel was last told, its target and count;
 * - `roll-call-cursor/<project>/<channel>`: where its last roll-call ended.
 * Both without an expiry, forgotten with the project (src/app/project-stores.ts) or the workspace
 * (src/app/forget-workspace.ts, keys naming its channels).
 */
export interface CampaignCheckStore {
  paceState(project: string, channel: ChannelRef): Promise<PaceWatchState | undefined>;
  setPaceState(project: string, channel: ChannelRef, state: PaceWatchState): Promise<void>;
  rollCallCursor(project: string, channel: ChannelRef): Promise<RollCallCursor | undefined>;
  setRollCallCursor(project: string, channel: ChannelRef, cursor: RollCallCursor): Promise<void>;
  /** Deletes both of every channel of the project; the values removed. */
  forget(project: string): Promise<number>;
}

const paceStateSchema: z.ZodType<PaceWatchState> = z.object({
  targetPercent: z.number(),
  deadline: z.number(),
  verdict: z.enum(['on-track', 'behind']),
  alerts: z.number().int(),
});
const cursorSchema = z.object({ period: z.string(), cut: z.number() });

const paceKey = (project: string) => `pace-alerts/${encodeURIComponent(project)}/`;
const cursorKey = (project: string) => `roll-call-cursor/${encodeURIComponent(project)}/`;

/**
 * An uninstall (src/app/forget-workspace.ts): deletes every campaign check value whose key names one of
 * `named` (a workspace's channel key fragments), in the settings store that keeps them under `campaign/`;
 * the values removed.
 */
export function forgetCampaignChecksNaming(
  settingsStore: KeyValueStore,
  named: readonly string[],
): Promise<number> {
  return settingsStore.deletePrefix('campaign/', named);
}

export function createCampaignCheckStore(store: KeyValueStore): CampaignCheckStore {
  return {
    paceState: (project, channel) => store.get(paceKey(project) + channelKey(channel), paceStateSchema),
    setPaceState: (project, channel, state) => store.set(paceKey(project) + channelKey(channel), state),
    rollCallCursor: (project, channel) => store.get(cursorKey(project) + channelKey(channel), cursorSchema),
    setRollCallCursor: (project, channel, cursor) =>
      store.set(cursorKey(project) + channelKey(channel), { period: cursor.period, cut: cursor.cut }),
    forget: async (project) =>
      (await store.deletePrefix(paceKey(project))) + (await store.deletePrefix(cursorKey(project))),
  };
}
