/**
 * The fake Slack and Discord (test/fakes) a real-bot chaos seed runs against, with the seed's channels, and the
 * admin's slash commands that subscribe and pace them, sent the way a member sends them (a Socket Mode envelope,
 * a gateway interaction). Also the seed's channel faults through the fakes' own controls: a Slack channel the bot
 * left or that was archived, a Discord channel whose overwrites deny the bot Send Messages, and their return.
 */
import { commandDefinitions } from '../../../src/domain/command-definitions.js';
import { type FakeDiscord, startFakeDiscord } from '../../fakes/discord/fake-discord.js';
import { botRoleId, type FakeGuild } from '../../fakes/discord/fake-discord-payloads.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack/fake-slack.js';
import { readmeThreadPermissions } from '../../journeys/harness/discord-driver.js';
import { slashCommand } from '../../slack/helpers.js';
import { waitUntil } from '../../support/wait-until.js';
import type { ChaosChannel, Schedule, TimedFault } from '../vocabulary.js';

export const realBotSecrets = {
  slackBotToken: 'xoxb-4242-chaos-real-bot',
  slackAppToken: 'xapp-1-A0FAKE-4242-chaos-real-bot',
} as const;
const admin = 'U0ADMIN';
const guildId = '100000000000000777';
const manageServer = 1n << 5n;
const sendMessages = 1n << 11n;

export interface ChaosFakes {
  readonly slack: FakeSlack;
  readonly discord: FakeDiscord;
  /** Runs the admin's commands in every channel of the seed: subscribe to supporters, the pacing, the daily thread. */
  subscribe(linkCaption: string): Promise<void>;
  /** Closes (`open` false) or opens a channel to the bot, as the fault says. */
  setAccess(fault: Extract<TimedFault, { kind: 'access' }>, open: boolean): void;
  close(): Promise<void>;
}

export async function startChaosFakes(schedule: Schedule): Promise<ChaosFakes> {
  const slack = await startFakeSlack({
    botToken: realBotSecrets.slackBotToken,
    users: [{ id: admin, team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  // The manifest subscribes the app to its channels' message events: over Socket Mode they come on its connection.
  slack.subscribeMessageEvents({ via: 'socket' });
  const guild: FakeGuild = {
    id: guildId,
    name: 'Chaos Kiosk Team',
    botPermissions: readmeThreadPermissions,
    channels: schedule.channels
      .filter((c) => c.platform === 'discord')
      .map((c, i) => ({ id: c.id, name: `chaos-${i + 1}` })),
  };
  const discord = await startFakeDiscord({ guilds: [guild], nonceWindowMs: schedule.nonceWindowMs });

  async function slackCommand(channel: string, text: string): Promise<void> {
    const responseUrl = slack.responseUrl();
    const id = responseUrl.split('/').at(-1);
    slack.sendSlashCommand(
      slashCommand({
        response_url: responseUrl,
        text,
        user_id: admin,
        user_name: 'lead',
        channel_id: channel,
      }),
    );
    const answer = await waitUntil(
      `the answer to /fundbot ${text} in ${channel}`,
      () => slack.responses.find((r) => r.id === id),
      { timeoutMs: 20_000 },
    );
    if (JSON.stringify(answer.body).match(/not a member|invite|cannot|kann nicht/i))
      throw new Error(`/fundbot ${text} in ${channel} was refused: ${JSON.stringify(answer.body)}`);
  }

  async function discordCommand(
    channelId: string,
    name: string,
    values: Readonly<Record<string, string | number>>,
  ): Promise<void> {
    const definition = commandDefinitions.find((d) => d.name === name);
    if (!definition) throw new Error(`no command /${name}`);
    const options = definition.options.flatMap((o) =>
      values[o.name] === undefined ? [] : [{ name: o.name, value: values[o.name] as string | number }],
    );
    const { id, token } = discord.sendChatInput({
      command: name,
      options,
      permissions: manageServer,
      channelId,
      guildId,
    });
    const callback = await discord.waitForRequest(
      (r) => r.path === `/interactions/${id}/${token}/callback`,
      20_000,
    );
    // A deferred answer (type 5) is done once its placeholder is edited.
    if ((callback.body as { type?: number } | undefined)?.type === 5)
      await discord.waitForRequest(
        (r) => r.method === 'PATCH' && r.path.includes(`/${token}/messages/@original`),
        20_000,
      );
  }

  async function subscribeOne(channel: ChaosChannel, linkCaption: string): Promise<void> {
    const mode = channel.pacing;
    if (channel.platform === 'slack') {
      await slackCommand(channel.id, `subscribe ${linkCaption} supporters`);
      await slackCommand(channel.id, `pacing supporters ${mode}${mode === 'batched' ? ' 1' : ''}`);
      if (channel.dailyThread) await slackCommand(channel.id, 'thread on');
      return;
    }
    await discordCommand(channel.id, 'subscribe', { project: linkCaption, kinds: 'supporters' });
    await discordCommand(channel.id, 'pacing', {
      kind: 'supporters',
      mode,
      ...(mode === 'batched' ? { minutes: 1 } : {}),
    });
    if (channel.dailyThread) await discordCommand(channel.id, 'thread', { mode: 'on' });
  }

  return {
    slack,
    discord,
    async subscribe(linkCaption) {
      for (const channel of schedule.channels) await subscribeOne(channel, linkCaption);
    },
    setAccess(fault, open) {
      if (fault.platform === 'discord') {
        discord.setPermissionOverwrites(
          fault.channel,
          open ? [] : [{ id: botRoleId(guild), type: 0, deny: sendMessages }],
        );
      } else if (fault.problem === 'is_archived') slack.setChannel({ id: fault.channel, isArchived: !open });
      else slack.setChannel({ id: fault.channel, isMember: open });
    },
    async close() {
      await slack.close();
      await discord.close();
    },
  };
}
