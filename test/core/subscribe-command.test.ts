/**
 * /subscribe checks that the bot can post in the channel before storing anything,
 * explains in the channel's language how to fix it when it cannot, and follows its
 * first answer per channel and project with a public "now watching" summary.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelAccess, ChannelAccessResult, ChannelRef } from '../../src/core/ports.js';
import { buildProject } from '../support/builders.js';
import { allText, createCoreFixture, discordChannel } from '../support/core-fixture.js';
import { FakeApiError } from '../support/fake-read-model.js';

const slackChannel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'C9' };

/** A channel access answering from a table (what the adapters' implementations answer is tested against the fakes). */
function accessAnswering(result: ChannelAccessResult | Error): ChannelAccess & { asked: ChannelRef[] } {
  const asked: ChannelRef[] = [];
  return {
    asked,
    async canPost(channel) {
      asked.push(channel);
      if (result instanceof Error) throw result;
      return result;
    },
  };
}

function fixtureWith(access: ChannelAccess) {
  return createCoreFixture({
    projects: [{ project: buildProject({ title: 'Solar *Kiosk* <!channel>', supporter_count: 123 }) }],
    deps: { channelAccess: access },
  });
}

const subscribe = (f: ReturnType<typeof fixtureWith>, kinds: string, channel: ChannelRef = discordChannel) =>
  f.run('subscribe', { project: 'solar-kiosk', kinds }, { canAdminister: true, channel });

describe('/subscribe checks the bot can post in the channel', () => {
  it('asks the channel access for the invocation channel and subscribes when it may post', async () => {
    const access = accessAnswering({ ok: true });
    const f = fixtureWith(access);
    const answer = await subscribe(f, 'supporters');
    expect(answer).toMatchObject({ tone: 'success', private: true });
    expect(access.asked).toEqual([discordChannel]);
    expect(await f.subscriptions.forChannel(discordChannel)).toHaveLength(1);
  });

  it.each([
    ['slack', { ok: false, reason: 'not-member' }, slackChannel, '/invite @fundbot'],
    ['slack', { ok: false, reason: 'archived' }, slackChannel, 'archived'],
    ['slack', { ok: false, reason: 'no-permission' }, slackChannel, 'posting settings'],
    [
      'discord',
      { ok: false, reason: 'no-permission', missing: ['send-messages', 'embed-links'] },
      discordChannel,
      'Give the bot’s role Send Messages and Embed Links in this channel',
    ],
    ['discord', { ok: false, reason: 'unknown' }, discordChannel, 'could not check'],
  ] as const)(
    '%s %j: refused privately, says what to do, stores nothing and posts no summary',
    async (_p, result, channel, expected) => {
      const f = fixtureWith(accessAnswering(result));
      const answer = await subscribe(f, 'supporters', channel);
      expect(answer).toMatchObject({ tone: 'error', private: true });
      expect(answer.text).toContain(expected);
      expect(answer.followUp).toBeUndefined();
      expect(await f.subscriptions.forChannel(channel)).toEqual([]);
    },
  );

  it('confirms after the supporters baseline is stored; says so when it is not (issue 30)', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    expect((await subscribe(f, 'supporters')).text).not.toContain('not read');
    expect(f.readModel.callsOf('baseline').map((c) => c.project)).toEqual(['solar-kiosk']);

    const unread = createCoreFixture({
      projects: [{ project: buildProject(), baseline: false }],
      deps: { channelAccess: accessAnswering({ ok: true }) },
    });
    const answer = await subscribe(unread, 'supporters', slackChannel);
    expect(answer.tone).toBe('warning');
    expect(answer.text).toContain('has not read the supporters of');
    expect(answer.text).toContain('/fundbot status says why');
    // Subscribed all the same: the notices start with the first read.
    expect(await unread.subscriptions.forChannel(slackChannel)).toHaveLength(1);
  });

  it('answers in the channel’s language (German)', async () => {
    const f = fixtureWith(accessAnswering({ ok: false, reason: 'not-member' }));
    await f.settings.setLocale(slackChannel, 'channel', 'de');
    const answer = await subscribe(f, 'all', slackChannel);
    expect(answer.text).toContain('Lade es mit /invite @fundbot ein');

    const discord = fixtureWith(
      accessAnswering({ ok: false, reason: 'no-permission', missing: ['send-messages'] }),
    );
    await discord.settings.setLocale(discordChannel, 'channel', 'de');
    expect((await subscribe(discord, 'all')).text).toContain('„Nachrichten senden“');
  });

  it('treats a check that throws as unknown: refused, nothing stored', async () => {
    const f = fixtureWith(accessAnswering(new Error('socket hang up')));
    const answer = await subscribe(f, 'wall');
    expect(answer).toMatchObject({ tone: 'error', private: true });
    expect(answer.text).toContain('could not check');
    expect(await f.subscriptions.forChannel(discordChannel)).toEqual([]);
  });

  it('does not check for non-admins (refused before) or for /unsubscribe', async () => {
    const access = accessAnswering({ ok: false, reason: 'not-member' });
    const f = fixtureWith(access);
    await f.run('subscribe', { project: 'solar-kiosk' }, { canAdminister: false });
    await f.run('unsubscribe', { project: 'solar-kiosk' }, { canAdminister: true });
    expect(access.asked).toEqual([]);
  });
});

describe('/subscribe posts "now watching" once per channel and project', () => {
  it('follows the first subscription with a public summary of the project’s figures', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    const answer = await subscribe(f, 'supporters');
    const summary = answer.followUp;
    expect(summary).toBeDefined();
    if (!summary) return;
    expect(summary.private).toBe(false);
    expect(summary.title).toBe('👀 fundbot is now watching Solar *Kiosk* <!channel>');
    expect(summary.progress).toEqual({
      current: 12_345,
      goal: 20_000,
      percent: (12_345 / 20_000) * 100,
      label: '61%',
    });
    const text = allText(summary);
    expect(text).toContain('€12,345 of €20,000');
    expect(text).toContain('123');
    expect(f.readModel.callsOf('project').length).toBeGreaterThan(0);
  });

  it('does not repeat it when the channel subscribes to more kinds, or again after unsubscribing', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    expect((await subscribe(f, 'supporters')).followUp).toBeDefined();
    const second = await subscribe(f, 'wall blog');
    expect(second).toMatchObject({ tone: 'success' });
    expect(second.followUp).toBeUndefined();
    await f.run('unsubscribe', { project: 'solar-kiosk' }, { canAdminister: true });
    expect((await subscribe(f, 'all')).followUp).toBeUndefined();
  });

  it('is once per channel: another channel gets its own, in its own language', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    await subscribe(f, 'all');
    const other: ChannelRef = { ...discordChannel, channelId: 'C2' };
    await f.settings.setLocale(other, 'channel', 'de');
    const answer = await subscribe(f, 'all', other);
    expect(answer.followUp?.title).toBe('👀 fundbot beobachtet jetzt Solar *Kiosk* <!channel>');
  });

  it('is remembered in the store: a core restarted on the same store does not repeat it', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    await subscribe(f, 'supporters');
    const { createSubscriptionStore } = await import('../../src/core/subscription-store.js');
    const reopened = createSubscriptionStore(f.store, { clock: f.clock });
    expect(await reopened.claimWatchingAnnouncement(discordChannel, 'solar-kiosk')).toBe(false);
    expect(
      await reopened.claimWatchingAnnouncement({ ...discordChannel, channelId: 'C3' }, 'solar-kiosk'),
    ).toBe(true);
  });

  it('is skipped, not remembered, when the project cannot be read: a later subscribe posts it', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    f.readModel.failWith('solar-kiosk', 'project', new FakeApiError(503, 'unavailable'));
    const first = await subscribe(f, 'supporters');
    expect(first).toMatchObject({ tone: 'success', private: true });
    expect(first.followUp).toBeUndefined();
    expect(await f.subscriptions.forChannel(discordChannel)).toHaveLength(1);
    f.readModel.clearFailure('solar-kiosk', 'project');
    expect((await subscribe(f, 'wall')).followUp).toBeDefined();
  });

  it('two concurrent first subscriptions post it once', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    const answers = await Promise.all([subscribe(f, 'supporters'), subscribe(f, 'wall')]);
    expect(answers.filter((a) => a.followUp !== undefined)).toHaveLength(1);
  });
});

describe('answers name other commands as the platform types them', () => {
  it('/subscriptions with none: /fundbot subscribe on Slack, /subscribe on Discord', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    expect((await f.run('subscriptions', {}, { channel: slackChannel })).text).toContain(
      'with /fundbot subscribe <project>',
    );
    expect((await f.run('subscriptions')).text).toContain('with /subscribe <project>');
  });

  it('an unknown command points to /fundbot help on Slack', async () => {
    const f = fixtureWith(accessAnswering({ ok: true }));
    expect((await f.run('teleport', {}, { channel: slackChannel })).text).toContain('Try /fundbot help.');
    expect((await f.run('teleport')).text).toContain('Try /help.');
  });
});
