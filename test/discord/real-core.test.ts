import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { discordLimits } from '../../src/adapters/discord/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { hostileTexts as simulatorHostileTexts } from '../../src/simulator/hostile-texts.js';
import { defaultGuild, type SentInteraction } from '../fakes/discord/fake-discord.js';
import {
  buildBlogPost,
  buildFunding,
  buildIncentive,
  buildProject,
  buildWallPost,
} from '../support/builders.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { allHostileTexts } from '../support/hostile-text.js';
import { coreAdapterPerFile, interactionReply } from './adapter-harness.js';
import { expectInertMarkdown, expectNoPingOrLink } from './inert-text.js';

/**
 * The adapter with the real command core (test/support fixture) against the
 * fake Discord: what a server would actually see, hostile API text included.
 */

const hostile = [...allHostileTexts, ...simulatorHostileTexts];
const pick = (i: number) => hostile[i % hostile.length]!;

interface Embed {
  title?: string;
  description?: string;
  author?: { name: string };
  footer?: { text: string };
  fields?: { name: string; value: string }[];
}
interface ReplyBody {
  type: number;
  data?: {
    flags?: number;
    embeds?: Embed[];
    components?: { components: { label?: string; url?: string }[] }[];
  };
}

const h = coreAdapterPerFile(() =>
  createCoreFixture({
    projects: [
      {
        project: buildProject({
          title: '@everyone Solar [Kiosk](https://evil.example)',
          link_caption: 'solar-kiosk',
        }),
        supporters: hostile
          .slice(0, 8)
          .map((name, i) =>
            buildFunding({ user: { id: 100 + i, display_name: name }, support_timestamp: 1_767_225_000 - i }),
          ),
        rewards: hostile
          .slice(0, 6)
          .map((title, i) => buildIncentive({ id: 20 + i, title, description: `<p>${pick(i + 3)}</p>` })),
        blogPosts: hostile
          .slice(0, 5)
          .map((title, i) => buildBlogPost({ id: 400 + i, title, description: pick(i + 7) })),
        wallPosts: hostile.slice(0, 5).map((message, i) => buildWallPost({ id: 600 + i, message })),
      },
    ],
  }),
);

const replyTo = (sent: SentInteraction) => interactionReply<ReplyBody>(h.fake, sent);

function expectInertEmbed(embed: Embed): void {
  for (const text of [
    embed.title,
    embed.description,
    ...(embed.fields ?? []).flatMap((f) => [f.name, f.value]),
  ]) {
    expectInertMarkdown(text ?? '');
  }
  expectNoPingOrLink(embed.author?.name ?? '');
  expectNoPingOrLink(embed.footer?.text ?? '');
  expect((embed.title ?? '').length).toBeLessThanOrEqual(discordLimits.title);
  expect((embed.description ?? '').length).toBeLessThanOrEqual(discordLimits.description);
}

describe('with the real command core', () => {
  it.each(['funding', 'supporters', 'rewards', 'blog', 'help'])(
    '/%s answers with an embed in which no hostile API text pings, links or formats',
    async (command) => {
      const body = await replyTo(
        h.fake.sendChatInput({ command, options: [{ name: 'project', value: 'solar-kiosk' }] }),
      );
      expect(body.type).toBe(4);
      const embeds = body.data?.embeds ?? [];
      expect(embeds.length).toBeGreaterThan(0);
      for (const embed of embeds) expectInertEmbed(embed);
      for (const row of body.data?.components ?? []) {
        for (const button of row.components) {
          expect(button.url).toMatch(/^https:\/\/platform\.example\//);
          expectNoPingOrLink(button.label ?? '');
        }
      }
    },
  );

  it('refuses /subscribe to a member without Manage Server and lets an admin subscribe the channel', async () => {
    const refused = await replyTo(
      h.fake.sendChatInput({ command: 'subscribe', options: [{ name: 'project', value: 'solar-kiosk' }] }),
    );
    expect(refused.data?.flags).toBe(MessageFlags.Ephemeral);
    const channel: ChannelRef = {
      platform: 'discord',
      workspaceId: defaultGuild.id,
      channelId: defaultGuild.channels[0]!.id,
    };
    expect(await h.fixture.subscriptions.forChannel(channel)).toEqual([]);

    await replyTo(
      h.fake.sendChatInput({
        command: 'subscribe',
        options: [{ name: 'project', value: 'solar-kiosk' }],
        permissions: PermissionFlagsBits.ManageGuild,
      }),
    );
    expect((await h.fixture.subscriptions.forChannel(channel)).map((s) => s.project)).toEqual([
      'solar-kiosk',
    ]);
  });

  it('suggests watched projects in autocomplete', async () => {
    const sent = h.fake.sendAutocomplete({
      command: 'funding',
      options: [{ name: 'project', value: 'sol' }],
      focused: 'project',
    });
    const body = (await replyTo(sent)) as unknown as { data: { choices: { value: string }[] } };
    expect(body.data.choices.map((c) => c.value)).toContain('solar-kiosk');
  });

  it('posts every kind of hostile notice inert and within limits', async () => {
    const channel: ChannelRef = {
      platform: 'discord',
      workspaceId: defaultGuild.id,
      channelId: defaultGuild.channels[0]!.id,
    };
    const events = [
      buildEvent.supporter({ id: 'n1', displayName: pick(0) }),
      buildEvent.wallPost({ id: 'n2', author: pick(1), message: pick(6) }),
      buildEvent.blogPost({ id: 'n3', title: pick(3), teaser: pick(2) }),
      buildEvent.rewardSoldOut({ id: 'n4', title: pick(4) }),
      buildEvent.wallPostBurst({ id: 'n5', authors: hostile.slice(0, 5) }),
    ];
    for (const event of events) {
      await h.adapter.poster.post(channel, h.fixture.core.renderNotice(event, 'de'), event.id);
    }
    const posted = h.fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${channel.channelId}/messages`,
    );
    expect(posted).toHaveLength(events.length);
    for (const request of posted) {
      const body = request.body as { embeds: Embed[]; allowed_mentions: unknown };
      expect(body.allowed_mentions).toEqual({ parse: [] });
      for (const embed of body.embeds) expectInertEmbed(embed);
    }
  });
});
