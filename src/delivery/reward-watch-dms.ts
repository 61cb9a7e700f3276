import type { ChannelRef } from '../domain/channels.js';
import type { FundbotEvent, RewardRestockedEvent } from '../domain/events.js';
import type { Logger } from '../domain/logger.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { KeyValueStore } from '../lib/store.js';
import { DirectMessageRefusedError, type DirectMessenger } from './direct-messenger.js';
import { createDmMarks } from './dm-marks-store.js';

/** The part of the watch store the messages need (src/core/settings/reward-watch-store.ts). */
export interface WatchersPort {
  watchersOf(
    project: string,
    rewardId: number,
  ): Promise<
    readonly {
      readonly workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>;
      readonly userId: string;
      readonly channelId: string;
      readonly project: string;
      readonly rewardId: number;
    }[]
  >;
  remove(
    workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>,
    watch: { readonly userId: string; readonly project: string; readonly rewardId: number },
  ): Promise<boolean>;
}

export interface RewardWatchDmsDeps {
  readonly watches: WatchersPort;
  /** The deliveries' store: the once-only marks `dm/<event id>/<user>` and their claims live there. */
  readonly store: KeyValueStore;
  /** The back-in-stock notice in the language of the channel the member asked in (the core's renderer). */
  readonly render: (event: RewardRestockedEvent, channel: ChannelRef) => Promise<NeutralMessage>;
  readonly logger: Logger;
  /** How long a replica holds one message before another may try (default 30 s). */
  readonly claimTtlMs?: number;
}

export interface RewardWatchDms {
  /**
   * A platform's adapter, with its messenger, or without one when its mode sends none (Slack's OAuth mode, the
   * console): that platform's watches are then dropped with a log line at their restock, never held.
   */
  register(platform: ChannelRef['platform'], messenger: DirectMessenger | undefined): void;
  /**
   * Sends each watcher of each restocked reward in `events` ONE direct message, then ends the watch. Resolves with
   * the ids of the events NOT finished (a platform not connected yet, a passing failure, another replica on it):
   * the caller keeps them in the outbox, so they come again at the project's next run, never sooner.
   */
  deliver(project: string, events: readonly FundbotEvent[]): Promise<ReadonlySet<string>>;
}

/**
 * The reward watch's direct messages (issue 32, item 3c), once across replicas and restarts: a member's message for
 * one restock is claimed (`dm-claim/…`, set-if-absent with a TTL), sent, marked done (`dm/<event id>/<user>`, kept
 * as long as delivery records), then the watch removed. A crash between the send and the mark can repeat that one
 * message at most once more after the claim expired; nothing is lost. A member the platform refuses (Discord 50007)
 * loses the watch with one log line and is not tried again.
 */
export function createRewardWatchDms(deps: RewardWatchDmsDeps): RewardWatchDms {
  const messengers = new Map<ChannelRef['platform'], DirectMessenger | undefined>();
  const marks = createDmMarks(deps.store, deps.claimTtlMs ?? 30_000);

  async function deliverOne(event: RewardRestockedEvent, project: string): Promise<boolean> {
    let finished = true;
    for (const watcher of await deps.watches.watchersOf(project, event.rewardId)) {
      const log = deps.logger.child({
        project,
        rewardId: event.rewardId,
        platform: watcher.workspace.platform,
      });
      if (await marks.done(event.id, watcher)) {
        // Sent before (a replica crashed before it removed the watch): only the removal is left.
        await deps.watches.remove(watcher.workspace, watcher);
        continue;
      }
      if (!messengers.has(watcher.workspace.platform)) {
        // The platform's adapter is not registered yet (start-up): the event waits for it.
        finished = false;
        continue;
      }
      const messenger = messengers.get(watcher.workspace.platform);
      if (!messenger) {
        await deps.watches.remove(watcher.workspace, watcher);
        log.warn({}, 'reward watch: this platform mode sends no direct messages, watch dropped');
        continue;
      }
      if (!(await marks.claim(event.id, watcher))) {
        finished = false;
        continue;
      }
      try {
        const channel: ChannelRef = { ...watcher.workspace, channelId: watcher.channelId };
        await messenger.sendDirect(watcher.workspace, watcher.userId, await deps.render(event, channel));
        await marks.markDone(event.id, watcher, 'sent');
        await deps.watches.remove(watcher.workspace, watcher);
        log.info({}, 'reward watch: direct message sent, watch ended');
      } catch (error) {
        if (error instanceof DirectMessageRefusedError) {
          await marks.markDone(event.id, watcher, 'refused');
          await deps.watches.remove(watcher.workspace, watcher);
          log.warn(
            { reason: error.reason },
            'reward watch: the member cannot be sent a direct message, watch dropped',
          );
        } else {
          finished = false;
          await marks.giveBack(event.id, watcher);
          log.warn({ err: error }, 'reward watch: direct message not sent, tried again at the next run');
        }
      }
    }
    return finished;
  }

  return {
    register(platform, messenger) {
      messengers.set(platform, messenger);
    },
    async deliver(project, events) {
      const unfinished = new Set<string>();
      for (const event of events) {
        if (event.type !== 'reward-restocked') continue;
        if (!(await deliverOne(event, project))) unfinished.add(event.id);
      }
      return unfinished;
    },
  };
}
