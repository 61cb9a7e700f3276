/**
 * Issue 31: text as people write it, through the real renderers. Names and texts with joiners
 * (family emoji, flags, Persian and Indic names) are cut at every text limit of
 * src/domain/text-limits.ts on their way to a channel, with the cut moved through every position
 * inside the sample; French, Spanish and Italian reward and blog HTML arrives with its entities
 * decoded. What Slack (Block Kit) and Discord (embed) would show never holds a piece of a
 * grapheme cluster, always holds the sample whole (its joiners kept), and never an entity.
 */
import { describe, expect, test } from 'vitest';
import { renderEmbed } from '../../src/adapters/discord/render-embed.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import { buildDigest, renderDigest } from '../../src/digest/index.js';
import { graphemes } from '../../src/domain/text.js';
import { limits } from '../../src/domain/text-limits.js';
import { aWallPost, scriptedCampaign } from '../digest/campaign-fixtures.js';
import {
  buildBlogPost,
  buildIncentive,
  buildIncentiveDetail,
  buildIncentiveOption,
  buildProject,
} from '../support/builders.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { entityTexts, joinedTexts } from '../support/joined-texts.js';
import { renderedEverywhere } from '../support/rendered-everywhere.js';

type Limit = keyof typeof limits;
const size = (text: string) => Array.from(text).length;

/**
 * Text longer than `min` code points: `prefix`, `shift` letters, then the sample repeated. Wherever a
 * bound cuts it, the cut falls among the samples, and each shift moves it one code point further
 * into a sample: over the shifts from 0 to a sample's length every position inside every cluster is cut.
 */
function longText(sample: string, shift: number, min: number, prefix = ''): string {
  return `${prefix}${'x'.repeat(shift)}${sample.repeat(Math.ceil(min / size(sample)) + 2)}`;
}

const glue = new Set(['\u200c', '\u200d', '\ufe0f']);

/** Every cluster shown that shares a non-ASCII character with the sample is one of the sample's clusters. */
function expectWholeClusters(shown: string, sample: string, where: string): void {
  const own = new Set(graphemes(sample));
  // The joiners and selectors are glue the renderers' own emoji use too (⚠️): the sample's letters tell it apart.
  const letters = new Set(Array.from(sample).filter((c) => c.charCodeAt(0) > 0x7f && !glue.has(c)));
  const pieces = graphemes(shown).filter((g) => Array.from(g).some((c) => letters.has(c)) && !own.has(g));
  expect(pieces, `${where}: a cluster was cut`).toEqual([]);
  expect(shown, `${where}: the sample lost a joiner or was cut away`).toContain(sample);
}

/** The message through both renderers, checked; `plain` is decoded entity text it must show. */
function expectRendered(message: NeutralMessage, sample: string, where: string, plain?: string): void {
  const { slack, discord: embed } = renderedEverywhere(message);
  // Discord draws links as buttons beside the embed: their labels are shown too.
  const buttons = renderEmbed(message).components.flatMap((row) =>
    row.components.map((button) => button.label ?? ''),
  );
  const discord = [embed, ...buttons].join('\n');
  for (const [platform, shown] of [
    ['Slack', slack],
    ['Discord', discord],
  ] as const) {
    expectWholeClusters(shown, sample, `${where} on ${platform}`);
    if (plain !== undefined) {
      expect(shown, `${where} on ${platform}`).toContain(plain);
      expect(shown, `${where} on ${platform}: an entity was not decoded`).not.toMatch(/&[a-z]+;|&#\d+;/i);
    }
  }
}

/** Each sample at every cut position through one path to a message bounded by `limits[limit]` (or `min`). */
async function throughPath(
  limit: Limit | { readonly min: number },
  render: (text: string) => NeutralMessage | Promise<NeutralMessage>,
  options: { html?: keyof typeof entityTexts; samples?: readonly (keyof typeof joinedTexts)[] } = {},
): Promise<void> {
  const entities = options.html ? entityTexts[options.html] : undefined;
  const min = typeof limit === 'string' ? limits[limit] : limit.min;
  const name = typeof limit === 'string' ? `limits.${limit}` : `${limit.min} characters`;
  for (const label of options.samples ?? (Object.keys(joinedTexts) as (keyof typeof joinedTexts)[])) {
    const sample = joinedTexts[label];
    for (let shift = 0; shift <= sample.length; shift++) {
      const text = longText(sample, shift, min, entities ? `${entities.html} ` : '');
      expectRendered(await render(text), sample, `${name}, ${label}, shift ${shift}`, entities?.plain);
    }
  }
}

describe('notices: names, titles, wall messages and teasers at their limits', () => {
  test('limits.name: a supporter and a wall post author', async () => {
    await throughPath('name', (name) =>
      renderNotice(buildEvent.supporter({ displayName: name }), 'en', 'UTC'),
    );
    await throughPath('name', (name) => renderNotice(buildEvent.wallPost({ author: name }), 'de', 'UTC'));
  });

  test('limits.title: a blog post and a sold-out reward', async () => {
    await throughPath('title', (title) => renderNotice(buildEvent.blogPost({ title }), 'en', 'UTC'));
    await throughPath('title', (title) => renderNotice(buildEvent.rewardSoldOut({ title }), 'de', 'UTC'));
  });

  test('limits.wallMessage and limits.teaser', async () => {
    await throughPath('wallMessage', (message) =>
      renderNotice(buildEvent.wallPost({ message }), 'en', 'UTC'),
    );
    await throughPath('teaser', (teaser) => renderNotice(buildEvent.blogPost({ teaser }), 'en', 'UTC'));
  });
});

describe('commands: reward and blog HTML in French, Spanish and Italian', () => {
  test('limits.rewardListDescription and limits.title in /rewards', async () => {
    const f = createCoreFixture({ projects: [{ project: buildProject(), rewards: [buildIncentive()] }] });
    await throughPath(
      'rewardListDescription',
      (description) => {
        f.readModel.update('solar-kiosk', { rewards: [buildIncentive({ description })] });
        return f.run('rewards');
      },
      { html: 'French' },
    );
    await throughPath('title', (title) => {
      f.readModel.update('solar-kiosk', { rewards: [buildIncentive({ title })] });
      return f.run('rewards');
    });
  });

  test('limits.rewardDescription and limits.choice in /reward', async () => {
    const f = createCoreFixture({
      projects: [{ project: buildProject(), rewardDetails: [buildIncentiveDetail()] }],
    });
    await throughPath(
      'rewardDescription',
      (description) => {
        f.readModel.update('solar-kiosk', { rewardDetails: [buildIncentiveDetail({ description })] });
        return f.run('reward', { id: 12 });
      },
      { html: 'Spanish' },
    );
    await throughPath('choice', (name) => {
      const choices = [buildIncentiveOption({ id: 1, name, position: 1 })];
      f.readModel.update('solar-kiosk', {
        rewardDetails: [buildIncentiveDetail({ variant_label_1: 'Taglia', variant_choices_1: choices })],
      });
      return f.run('reward', { id: 12 });
    });
  });

  test('limits.listTeaser in /blog', async () => {
    const f = createCoreFixture({ projects: [{ project: buildProject(), blogPosts: [buildBlogPost()] }] });
    await throughPath(
      'listTeaser',
      (html) => {
        f.readModel.update('solar-kiosk', { blogPosts: [buildBlogPost({ description: html, text: html })] });
        return f.run('blog');
      },
      { html: 'Italian' },
    );
  });

  test('limits.reason and limits.driftLine in /status', async () => {
    let detail = '';
    const f = createCoreFixture({
      deps: {
        operationalNotes: () => [
          { cause: 'store-failing', detail },
          { cause: 'api-drift', detail },
        ],
      },
    });
    for (const limit of ['reason', 'driftLine'] as const) {
      await throughPath(limit, (text) => {
        detail = text;
        return f.run('status');
      });
    }
  });
});

describe('the digest and the platforms’ own bounds', () => {
  test('limits.quotedMessage: the latest wall post quoted in the digest, from HTML', async () => {
    const now = Date.UTC(2026, 2, 10, 8, 0);
    const campaign = scriptedCampaign(now);
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject(campaign);
    await throughPath(
      'quotedMessage',
      async (message) => {
        readModel.update('solar-kiosk', { wallPosts: [aWallPost({ id: 9, at: now - 3_600_000, message })] });
        const data = await buildDigest({
          readModel,
          project: 'solar-kiosk',
          now,
          locale: 'en',
          timeZone: 'UTC',
        });
        // A small chart without text: the quoted message is what is looked at here.
        return renderDigest(data, 'en', { scale: 0.25, text: 'none' });
      },
      { html: 'French' },
    );
  });

  test('limits.messageTitle and limits.linkLabel (Slack), and every bound of Slack blocks and a Discord embed', async () => {
    const url = 'https://platform.example/solar-kiosk';
    const one = (text: string): NeutralMessage[] => [
      { title: text },
      { title: 'Solar Kiosk', badge: text },
      { title: 'Solar Kiosk', text },
      { title: 'Solar Kiosk', footer: text },
      { title: 'Solar Kiosk', fields: [{ name: text, value: 'x' }] },
      { title: 'Solar Kiosk', fields: [{ name: 'x', value: text, items: [text] }] },
      { title: 'Solar Kiosk', links: [{ label: text, url }] },
    ];
    for (let index = 0; index < one('').length; index++) {
      await throughPath({ min: 4_200 }, (text) => one(text)[index] as NeutralMessage, {
        samples: [
          'a family (ZWJ sequence)',
          'a Persian name with ZWNJ (Mehrnoush)',
          'a Devanagari half form with ZWJ',
          'the Scottish flag (tag sequence)',
        ],
      });
    }
  }, 120_000);
});
