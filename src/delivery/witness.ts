import type { ChannelRef } from '../domain/channels.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import type { Sighting } from './ports.js';
import { createSightingsStore } from './sightings-store.js';

/** A workspace whose own-message events came within this long is live: its events can be waited for. */
export const witnessLiveMs = 10 * 60_000;
/** How long this process remembers a sighting: longer than any doubt or late landing lasts. */
const keptMs = 30 * 60_000;
const keptNames = 5_000;
/**
 * The platform's own witness of our posts: its events for the bot's own messages (Slack `message` events,
 * Discord `MESSAGE_CREATE`), which cost no look budget and arrive within about a second of the landing.
 *
 * - A sighting settles a doubt about its delivery at once: it landed, with this id.
 * - While a workspace's events flow (live), their silence past where a post would have landed says it did not:
 *   `passed(channel)` is the newest landing time the events have shown there.
 * - A sighting of a copy the ledger does not name is an extra copy (a late landing after a repost): the
 *   pipeline removes it.
 *
 * Memory: the last sightings by name (key or mark), at most 5,000 for 30 minutes; per workspace, when events
 * last came and the newest time they showed. Store: a sighting whose delivery was still in doubt (or in the
 * air) when it came is written under `delivery/sighted/<key>` (a day), so the replica that decides the doubt
 * sees it; a sighting of a delivery already confirmed costs nothing.
 */
export function createWitness(options: { readonly store: KeyValueStore; readonly clock: Clock }) {
  const { store, clock } = options;
  const byName = new Map<string, { ids: string[]; at: number }>();
  const removedIds = new Set<string>();
  const workspaces = new Map<string, { receivedAt: number; newestAt: number; liveSince: number }>();
  /** When this process's event stream of each platform last connected (Socket Mode `connected`), unbroken since. */
  const streams = new Map<ChannelRef['platform'], number>();
  const workspaceOf = (channel: ChannelRef) => `${channel.platform}:${channel.workspaceId}`;
  const sightings = createSightingsStore(store);

  function remember(name: string, messageId: string): void {
    const now = clock.now();
    const entry = byName.get(name) ?? { ids: [], at: now };
    if (!entry.ids.includes(messageId)) entry.ids.push(messageId);
    entry.at = now;
    byName.delete(name);
    byName.set(name, entry);
    for (const [oldest, e] of byName) {
      if (byName.size <= keptNames && e.at > now - keptMs) break;
      byName.delete(oldest);
    }
  }

  return {
    /** A message of ours was seen in a channel. */
    note(sighting: Sighting): void {
      for (const name of [sighting.key, sighting.mark]) if (name) remember(name, sighting.messageId);
      const workspace = workspaceOf(sighting.channel);
      const now = clock.now();
      const known = workspaces.get(workspace);
      const lapsed = !known || now - known.receivedAt >= witnessLiveMs;
      workspaces.set(workspace, {
        receivedAt: now,
        newestAt: Math.max(lapsed ? 0 : (known?.newestAt ?? 0), sighting.at),
        liveSince: lapsed ? now : known.liveSince,
      });
    },

    /** Message ids sighted in this process under any of these names (key, mark), oldest first. */
    seen(...names: readonly (string | undefined)[]): string[] {
      const ids: string[] = [];
      for (const name of names) {
        if (!name) continue;
        for (const id of byName.get(name)?.ids ?? []) if (!ids.includes(id)) ids.push(id);
      }
      return ids;
    },

    /** A sighted copy that was removed (older-attempt.ts): it decides nothing any more. */
    forget(sighting: Sighting): void {
      for (const name of [sighting.key, sighting.mark]) {
        const entry = name ? byName.get(name) : undefined;
        if (entry) entry.ids = entry.ids.filter((id) => id !== sighting.messageId);
      }
      removedIds.add(sighting.messageId);
      if (removedIds.size > keptNames) removedIds.delete(removedIds.values().next().value as string);
    },

    /** Whether this process removed that message as a late copy of an older attempt (see `forget`). */
    removed(messageId: string): boolean {
      return removedIds.has(messageId);
    },

    /** Sightings of a delivery written by any replica (those that came while it was in doubt). */
    async stored(key: string): Promise<readonly string[]> {
      return sightings.read(key);
    },

    /** Writes a sighting for the replica that decides the delivery's doubt. */
    async store(key: string, messageId: string): Promise<void> {
      await sightings.add(key, messageId);
    },

    /**
     * This process's event stream from the platform broke (a Socket Mode or gateway disconnect): the events of
     * the gap may never come, so the silence of every workspace on it speaks again only for posts attempted
     * after its events flow anew. Sightings already noted stay.
     */
    interrupted(platform: ChannelRef['platform']): void {
      streams.delete(platform);
      for (const workspace of [...workspaces.keys()])
        if (workspace.startsWith(`${platform}:`)) workspaces.delete(workspace);
    },

    /**
     * This process's event stream from the platform connected (Socket Mode `connected`; for the HTTP Events API,
     * the process began receiving): every event Slack hands out from now on can reach it, until `interrupted`.
     */
    connected(platform: ChannelRef['platform']): void {
      streams.set(platform, clock.now());
    },

    /** When this process's event stream of the platform connected, unbroken since (undefined: not known). */
    connectedSince(platform: ChannelRef['platform']): number | undefined {
      return streams.get(platform);
    },

    /**
     * Since when the workspace's events have surely reached this process: its stream's connection time, once one
     * of the workspace's events has come on that same unbroken connection (the proof that Slack hands this
     * workspace's events to it, not only that a socket is open) and lately (`live`). Undefined without that
     * proof. What a silence since then means in a fleet is the resolver's call (doubt-resolver.ts).
     */
    streamSince(channel: ChannelRef): number | undefined {
      const since = streams.get(channel.platform);
      const known = workspaces.get(workspaceOf(channel));
      if (since === undefined || !known || known.receivedAt < since) return undefined;
      return clock.now() - known.receivedAt < witnessLiveMs ? since : undefined;
    },

    /** Whether the workspace's own-message events came lately: their silence then means something. */
    live(channel: ChannelRef): boolean {
      const known = workspaces.get(workspaceOf(channel));
      return known !== undefined && clock.now() - known.receivedAt < witnessLiveMs;
    },

    /**
     * Whether this process has been receiving the workspace's events since before `at` (without a gap): only
     * then does their silence speak for a post attempted at `at` (a process started after it, or whose events
     * lapsed, may have missed the post's event; a look decides that doubt).
     */
    coveredSince(channel: ChannelRef, at: number): boolean {
      const known = workspaces.get(workspaceOf(channel));
      return known !== undefined && clock.now() - known.receivedAt < witnessLiveMs && known.liveSince <= at;
    },

    /**
     * The newest landing time (the platform's clock) the workspace's events have shown while they are live:
     * a post that would have landed before it and was not sighted did not land (or lands late, and is
     * removed when it is sighted then). Undefined while no events come.
     */
    passed(channel: ChannelRef): number | undefined {
      const known = workspaces.get(workspaceOf(channel));
      return known && clock.now() - known.receivedAt < witnessLiveMs ? known.newestAt : undefined;
    },
  };
}

export type Witness = ReturnType<typeof createWitness>;
