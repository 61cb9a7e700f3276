/**
 * The platforms' events for the bot's own messages, as production receives them: Slack's `message` events (the
 * app is subscribed to `message.channels`/`message.groups`: src/adapters/slack/app-manifest.ts) and Discord's
 * `MESSAGE_CREATE` (GuildMessages). When a post lands in a model, its event reaches the processes a few hundred
 * ms to a few s later (drawn per message from the seed), through the same translation the adapters use
 * (`ownMessageSighting` of own-message-events.ts / own-message-create.ts) into the same port
 * (`Delivery.witnessed`).
 *
 * Who receives it: Slack sends a Socket Mode event to one of the app's open connections (drawn per message among
 * the running processes; a paused process does not acknowledge, so Slack's retry goes to another), and an event
 * no connection took is retried as Slack does (at once, after 1 and after 5 minutes), then lost; every
 * process's gateway session receives a Discord event (a paused one gets it on resume: the gateway replays a
 * resumed session's events). A process that is dead, not yet connected (`connectMs` after its start), or whose
 * connection is down in one of the schedule's `eventsLost` windows gets nothing, and is told of the drop when
 * the window opens (as the adapters tell the witness of a disconnect); meanwhile the pipeline has only its looks.
 * Edits and deletions make no sighting (the adapters ignore them), so they are not sent.
 */
import { ownMessageSighting as discordSighting } from '../../../src/adapters/discord/own-message-create.js';
import { ownMessageSighting as slackSighting } from '../../../src/adapters/slack/own-message-events.js';
import type { Sighting } from '../../../src/delivery/index.js';
import { randomInt } from '../../../src/lib/random.js';
import type { ManualClock } from '../../support/manual-clock.js';
import { decisionRandom } from '../platform-faults.js';
import { chaosDiscord, type DiscordModel } from '../platforms/discord-model.js';
import { chaosSlack, type SlackModel } from '../platforms/slack-model.js';
import type { Platform, Schedule } from '../vocabulary.js';
import type { BotProcess } from './bot-process.js';

/** A process as the events see it: its slot, when it started, its life and its delivery pipeline. */
export interface EventReceiver {
  readonly slot: number;
  readonly startedAt: number;
  readonly process: BotProcess;
}

export function deliverOwnMessageEvents(deps: {
  readonly clock: ManualClock;
  readonly schedule: Schedule;
  readonly slack: SlackModel;
  readonly discord: DiscordModel;
  /** The processes alive now, in slot order. */
  readonly receivers: () => readonly EventReceiver[];
  /** Counts events sent and lost, for the seed's notes. */
  readonly tally: { sent: number; lost: number };
}): { readonly started: (process: BotProcess) => void } {
  const { clock, schedule, tally } = deps;
  const { ownEvents } = schedule;

  const connected = (platform: Platform, receiver: EventReceiver, at: number) =>
    receiver.process.life.state !== 'dead' &&
    at >= receiver.startedAt + ownEvents.connectMs &&
    !ownEvents.lost.some(
      (w) =>
        w.platform === platform &&
        (w.slot === undefined || w.slot === receiver.slot) &&
        at >= w.from &&
        at < w.to,
    );

  /** Slack retries an event no connection acknowledged: nearly at once, after 1 minute and after 5 minutes. */
  const slackRetriesMs = [1_000, 60_000, 300_000];

  function send(platform: Platform, messageId: string, sighting: Sighting | undefined): void {
    if (!sighting) return;
    const random = decisionRandom(schedule.seed, 'own-event', platform, messageId);
    const delayMs = randomInt(random, ownEvents.minDelayMs, ownEvents.maxDelayMs);
    const pickRoll = random.next();
    const attempt = async (retry: number): Promise<void> => {
      const at = clock.now();
      const open = deps.receivers().filter((r) => connected(platform, r, at));
      if (platform === 'slack') {
        const running = open.filter((r) => r.process.life.running);
        const one = running[Math.floor(pickRoll * running.length)];
        if (one) {
          tally.sent += 1;
          one.process.wiring.delivery.witnessed(sighting);
          return;
        }
        const wait = slackRetriesMs[retry];
        if (wait === undefined) tally.lost += 1;
        else await clock.sleep(wait).then(() => attempt(retry + 1));
        return;
      }
      if (open.length === 0) tally.lost += 1;
      for (const target of open) {
        tally.sent += 1;
        await target.process.life.ready();
        target.process.wiring.delivery.witnessed(sighting);
      }
    };
    void clock.sleep(delayMs).then(() => attempt(0));
  }

  // A window of lost events opens as a drop of the processes' connections, which the adapters tell the
  // witness (Socket Mode's `disconnected`, the gateway's shard disconnect): their silence stops deciding doubts.
  for (const window of ownEvents.lost) {
    void clock.sleep(Math.max(0, window.from - clock.now())).then(async () => {
      for (const receiver of deps.receivers()) {
        if (window.slot !== undefined && window.slot !== receiver.slot) continue;
        if (receiver.process.life.state === 'dead') continue;
        await receiver.process.life.ready();
        receiver.process.wiring.delivery.witnessInterrupted(window.platform);
      }
    });
  }

  /**
   * Slack's Socket Mode `connected`, which the adapter tells the witness (stream-cover.ts): `connectMs` after a
   * process starts, and again when a window of lost events ends (the connection back).
   */
  const tellConnected = async (process: BotProcess) => {
    if (process.life.state === 'dead') return;
    await process.life.ready();
    // A process killed while paused never resumes; one that did is running.
    if (process.life.running) process.wiring.delivery.witnessConnected('slack');
  };
  const slotOf = (process: BotProcess) => deps.receivers().find((r) => r.process === process)?.slot;
  const lostUntil = (slot: number | undefined, at: number) =>
    ownEvents.lost.find(
      (w) => w.platform === 'slack' && (w.slot === undefined || w.slot === slot) && at >= w.from && at < w.to,
    )?.to;
  for (const window of ownEvents.lost) {
    if (window.platform !== 'slack') continue;
    void clock.sleep(Math.max(0, window.to - clock.now())).then(async () => {
      for (const receiver of deps.receivers())
        if (
          (window.slot === undefined || window.slot === receiver.slot) &&
          clock.now() >= receiver.startedAt + ownEvents.connectMs &&
          lostUntil(receiver.slot, clock.now()) === undefined
        )
          await tellConnected(receiver.process);
    });
  }

  deps.slack.onLanded((message) =>
    send(
      'slack',
      message.ts,
      slackSighting(
        {
          ...(message.files ? { subtype: 'file_share' } : {}),
          channel: message.channel,
          user: message.user,
          ...(message.bot_id ? { bot_id: message.bot_id } : {}),
          ts: message.ts,
          // Message events carry the blocks, not the metadata's payload (slack-look.ts: deliveryBlockId).
          ...(message.blocks ? { blocks: message.blocks } : {}),
        },
        { botId: 'B0BOT', botUserId: chaosSlack.botUserId, teamId: chaosSlack.teamId },
      ),
    ),
  );
  deps.discord.onLanded(({ channelId, threadParentId, message }) =>
    send(
      'discord',
      String(message['id']),
      discordSighting({
        guildId: chaosDiscord.guildId,
        channelId,
        ...(threadParentId ? { threadParentId } : {}),
        messageId: String(message['id']),
        nonce: (message['nonce'] as string | number | null | undefined) ?? null,
        createdTimestamp: Number((BigInt(String(message['id'])) >> 22n) + 1_420_070_400_000n),
      }),
    ),
  );
  return {
    started(process: BotProcess): void {
      const at = clock.now() + ownEvents.connectMs;
      void clock.sleep(ownEvents.connectMs).then(async () => {
        // Inside a window of lost events the connection comes back at its end (told there).
        if (lostUntil(slotOf(process), at) === undefined) await tellConnected(process);
      });
    },
  };
}
