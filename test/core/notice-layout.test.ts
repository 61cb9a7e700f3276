import { describe, expect, it } from 'vitest';
import { renderBlocks } from '../../src/adapters/slack/render-blocks.js';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import { renderDigest } from '../../src/digest/index.js';
import { campaign, digestOf } from '../digest/helpers/digest-setup.js';
import { buildProject } from '../support/builders.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent, oneOfEveryEvent } from '../support/event-builders.js';
import { renderedEverywhere } from '../support/rendered-everywhere.js';

/** The progress bars of a text: runs of ▰ and ▱. */
const bars = (text: string) => text.match(/[▰▱]+/g) ?? [];
/** Every percentage a text names ("64%", "64 %", "7.5%"). */
const percents = (text: string) => [...text.matchAll(/(\d+(?:[.,]\d+)?) ?%/g)].map((m) => m[1]);

describe('notice layout on Slack, Discord and the console (issue 23)', () => {
  // 64.5 % of the goal: a rounding core said 65% where the flooring adapters said 64%.
  const watching = buildEvent.watching({ funding: 12_900, goal: 20_000 });
  const milestone = buildEvent.milestone({ funding: 12_900, goal: 20_000, percent: 50 });

  it.each([
    ['now watching', watching],
    ['a milestone', milestone],
  ])('%s shows the progress bar once, and one percentage', (_name, event) => {
    for (const locale of ['en', 'de'] as const) {
      for (const [platform, text] of Object.entries(renderedEverywhere(renderNotice(event, locale, 'UTC')))) {
        expect(bars(text), `${platform} ${locale}`).toHaveLength(1);
        const progress = percents(text).filter((p) => p !== '50');
        expect(new Set(progress), `${platform} ${locale}: ${text}`).toEqual(new Set(['64']));
      }
    }
  });

  it('/funding shows the bar once and agrees with itself about the percentage', async () => {
    const f = createCoreFixture({ projects: [{ project: buildProject({ current_funding: 12_900 }) }] });
    const message = await f.run('funding');
    for (const [platform, text] of Object.entries(renderedEverywhere(message))) {
      expect(bars(text), platform).toHaveLength(1);
      expect(new Set(percents(text)), platform).toEqual(new Set(['64']));
    }
  });

  it('a sold-out notice says "sold out" once', () => {
    for (const locale of ['en', 'de'] as const) {
      const message = renderNotice(buildEvent.rewardSoldOut(), locale, 'UTC');
      for (const [platform, text] of Object.entries(renderedEverywhere(message))) {
        expect(text.match(/sold out|ausverkauft/gi), `${platform} ${locale}: ${text}`).toHaveLength(1);
      }
    }
  });

  it('a change to a status the spec does not name reads as one status line', () => {
    const en = renderNotice(buildEvent.projectStatus({ from: 'active', to: 'finished' }), 'en', 'UTC');
    expect(en.title).toBe('Project status: Funding phase → “finished”');
    const de = renderNotice(buildEvent.projectStatus({ from: 'finished', to: 'active' }), 'de', 'UTC');
    expect(de.title).not.toMatch(/Status:.*Status:/);
    expect(de.title).toContain('„finished“');
  });

  it('no notice of any kind draws a bar twice or repeats its badge in its title', () => {
    for (const event of oneOfEveryEvent()) {
      const message = renderNotice(event, 'en', 'UTC');
      for (const [platform, text] of Object.entries(renderedEverywhere(message))) {
        expect(bars(text).length, `${event.type} on ${platform}`).toBeLessThanOrEqual(1);
      }
      if (message.badge) expect(message.title?.toLowerCase()).not.toContain(message.badge.toLowerCase());
    }
  });

  it('names with _ and * show exactly as written: no look-alikes on Slack, escaped markdown on Discord', () => {
    const name = 'kiosk_lover *solar*';
    for (const event of [
      buildEvent.supporter({ displayName: name }),
      buildEvent.wallPost({ author: name, message: `_${name}_` }),
      // A linked title and a field: where the Slack renderer used mrkdwn and its look-alikes.
      buildEvent.blogPost({ title: name }),
      buildEvent.watching({ title: name }),
    ]) {
      const { slack, discord, console } = renderedEverywhere(renderNotice(event, 'en', 'UTC'));
      expect(slack).toContain(name);
      expect(console).toContain(name);
      expect(discord).toContain('kiosk\\_lover \\*solar\\*');
      expect(discord.replace(/\\(.)/g, '$1')).toContain(name);
      expect(`${slack}${discord}`).not.toMatch(/[\u2217\u02cd\u223c\u02cb]/);
    }
  });

  it('digest lists have bullets on every platform', async () => {
    const message = renderDigest(await digestOf(campaign()), 'en');
    const { discord, console } = renderedEverywhere(message);
    expect(discord).toContain('Rewards sold\n- 7× Sticker pack\n- 5× Dinner with the team');
    expect(console).toContain('Rewards sold:\n  • 7× Sticker pack\n  • 5× Dinner with the team');
    const lists = renderBlocks(message).blocks.flatMap((b) =>
      b.type === 'rich_text' ? b.elements.filter((e) => e.type === 'rich_text_list') : [],
    );
    expect(lists.map((l) => l.style)).toEqual(['bullet', 'bullet', 'bullet']);
  });
});
