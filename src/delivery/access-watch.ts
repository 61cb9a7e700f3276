import type { CannotPost, ChannelAccessStates } from '../core/index.js';
import { type ChannelAccess, type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import type { WarningLogger } from '../domain/logger.js';
import { type BackoffPolicy, backoffMs, RECOVERY_RECHECK_MAX_MS } from '../lib/backoff.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { Random } from '../lib/random.js';
import type { ChannelUnavailableError } from './channel-unavailable-error.js';
import type { DeliveryObserver } from './delivery-observer.js';
import type { Wakeups } from './wakeups.js';

/**
 * Re-checks of a channel the bot cannot post in: 30 s, then every 40 s (±25 %, RECOVERY_RECHECK_MAX_MS), so
 * access that returns without an event (a permission granted back, a Slack invite whose event was missed) is seen
 * within 50 s however long it was gone (it was 30 s doubling to 10 minutes: 239 s after a 7-minute outage).
 * Cost per held channel: 90 checks an hour. Slack: one `conversations.info` each (Tier 3, 50+ a minute per
 * workspace: about 30 channels of one workspace held at once would reach it); Discord: usually none (the gateway's
 * cache), else one `GET /channels/{id}`. On replicas one check per interval serves the fleet (the claim below).
 */
export const accessRecheckBackoff: BackoffPolicy = {
  baseMs: 30_000,
  maxMs: RECOVERY_RECHECK_MAX_MS,
  jitter: 'spread',
};

export interface AccessWatchDeps {
  readonly states: ChannelAccessStates;
  readonly clock: Clock;
  readonly random: Random;
  /** A re-check is claimed for its interval: one replica asks the platform, the others read the result. */
  readonly claims: Claims;
  readonly wakeups: Wakeups;
  readonly accessFor: (platform: ChannelRef['platform']) => ChannelAccess | undefined;
  /** The lane of the channel stops (holds) or resumes posting. */
  readonly setBlocked: (channel: ChannelRef, blocked: boolean) => void;
  /** Access is back: the channel's held batches go out as catch-ups. */
  readonly catchUp: (channel: ChannelRef) => void;
  /** Settings changed (the access state is one): cached profiles must be read again. */
  readonly invalidate: () => void;
  readonly observer: DeliveryObserver;
  readonly logger: WarningLogger & { info?: (details: object, message: string) => void };
  readonly track: <T>(work: Promise<T>) => Promise<T>;
}

/**
 * Lost access is a state, not a drop. A post refused for good (not in the channel, a
 * permission missing, archived, deleted, token revoked) marks the channel "cannot post"
 * in the store (shown by /subscriptions, /status and /healthz); its notices are held as
 * catch-up batches; the channel is re-checked through the adapter's ChannelAccess
 * every 30-50 s ({@link accessRecheckBackoff}), or at once when the platform says something changed
 * (Slack `member_joined_channel`/`channel_unarchive`, a Discord permission change); when
 * it can post again the held notices go out as one catch-up per project and kind.
 *
 * Held means: kept up to 14 days (HELD_NOTICE_DAYS, the batch records' life) with every name; a channel
 * still refused after that has its oldest catch-ups expire, with an error in the log each day.
 */
export function createAccessWatch(deps: AccessWatchDeps) {
  const { states, clock, wakeups } = deps;
  const blocked = new Map<string, { channel: ChannelRef; state: CannotPost; rechecks: number }>();

  function schedule(key: string, soon = false): void {
    const entry = blocked.get(key);
    if (!entry) return;
    // `soon`: another replica is asking the platform right now; its answer is in the store in a moment.
    const wait = soon ? 5_000 : backoffMs(accessRecheckBackoff, entry.rechecks + 1, () => deps.random.next());
    wakeups.at(`access:${key}`, clock.now() + wait, () => void deps.track(recheck(key)));
  }

  function release(key: string, channel: ChannelRef, heldSince: number): void {
    blocked.delete(key);
    wakeups.cancel(`access:${key}`);
    deps.setBlocked(channel, false);
    deps.catchUp(channel);
    deps.observer.access?.({ channel, problem: undefined });
    deps.logger.info?.(
      { channel: key, heldForMs: clock.now() - heldSince },
      'fundbot can post in the channel again: its held notices go out as a catch-up',
    );
  }

  async function recheck(key: string): Promise<void> {
    const entry = blocked.get(key);
    if (!entry) return;
    const { channel } = entry;
    try {
      if (!(await deps.claims.claimOnce(`recheck:${key}`, accessRecheckBackoff.baseMs))) {
        // Another replica asks the platform now: its answer lands in the store.
        if ((await states.get(channel)) === undefined) return release(key, channel, entry.state.since);
        return schedule(key, true);
      }
      entry.rechecks += 1;
      const access = deps.accessFor(channel.platform);
      const result = access
        ? await access.canPost(channel)
        : { ok: false as const, reason: 'unknown' as const };
      if (result.ok) {
        await states.markCanPost(channel);
        deps.invalidate();
        return release(key, channel, entry.state.since);
      }
      entry.state = await states.markCannotPost(channel, result, clock.now());
      deps.invalidate();
    } catch (error) {
      deps.logger.warn(
        { channel: key, ...errorSummary(error) },
        'could not re-check the channel: tried again later',
      );
    }
    schedule(key);
  }

  function track(channel: ChannelRef, state: CannotPost): void {
    const key = channelKey(channel);
    const known = blocked.get(key);
    blocked.set(key, { channel, state, rechecks: known?.rechecks ?? 0 });
    deps.setBlocked(channel, true);
    if (!known) schedule(key);
  }

  return {
    /** A post was refused for good: the channel holds its notices from now on. */
    async cannotPost(channel: ChannelRef, error: ChannelUnavailableError): Promise<void> {
      const state = await states.markCannotPost(
        channel,
        { reason: error.reason, ...(error.missing ? { missing: error.missing } : {}) },
        clock.now(),
      );
      deps.invalidate();
      const isNew = !blocked.has(channelKey(channel));
      track(channel, state);
      if (isNew) {
        deps.observer.access?.({ channel, problem: error.reason });
        deps.logger.error(
          { channel: channelKey(channel), reason: error.reason },
          `${error.message}; its notices are held and posted as one catch-up when fundbot can post there again`,
        );
      }
    },

    /**
     * A notice was held because the store says the channel cannot be posted in (another
     * replica, or an earlier process, found it so): this one re-checks it too, so its own
     * held notices go out when access returns.
     */
    heldFor(channel: ChannelRef, state: CannotPost): void {
      if (!blocked.has(channelKey(channel))) track(channel, state);
    },

    /** When the bot could not post in the channel since (undefined: it can). */
    since(channel: ChannelRef): number | undefined {
      return blocked.get(channelKey(channel))?.state.since;
    },

    /**
     * The platform said something changed (the bot joined, the channel was unarchived, a
     * permission changed): re-check that channel, or every held channel of a server or
     * workspace (a role changed), at once.
     */
    recheckNow(scope: ChannelRef | Pick<ChannelRef, 'platform' | 'workspaceId'>): void {
      for (const [key, entry] of blocked) {
        const { channel } = entry;
        if (channel.platform !== scope.platform || channel.workspaceId !== scope.workspaceId) continue;
        if ('channelId' in scope && channel.channelId !== scope.channelId) continue;
        void deps.track(recheck(key));
      }
    },

    /** At start: the channels the store says cannot be posted in are held and re-checked. */
    async resume(): Promise<void> {
      for (const { channel, state } of await states.list()) track(channel, state);
    },

    /** After a settings change seen in the store: a channel another replica found reachable again is released. */
    async settingsChanged(): Promise<void> {
      for (const [key, entry] of [...blocked]) {
        if ((await states.get(entry.channel)) === undefined) release(key, entry.channel, entry.state.since);
      }
    },

    /** The channels held now, for /healthz. */
    held(): readonly { readonly channel: ChannelRef; readonly state: CannotPost }[] {
      return [...blocked.values()].map(({ channel, state }) => ({ channel, state }));
    },
  };
}

export type AccessWatch = ReturnType<typeof createAccessWatch>;
