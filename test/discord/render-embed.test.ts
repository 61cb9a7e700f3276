import { ButtonStyle, ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { discordLimits, renderEmbed } from '../../src/adapters/discord/index.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { hostileLongText, hostileTexts } from '../../src/simulator/hostile-texts.js';
import { expectInertMarkdown, expectNoPingOrLink } from './inert-text.js';

/** A message with the same hostile text in every user-text slot. */
function hostileMessage(text: string): NeutralMessage {
  return {
    title: text,
    titleUrl: 'https://platform.example/p/demo',
    text,
    fields: [
      { name: text, value: text },
      { name: 'Reward', value: text, inline: true },
    ],
    badge: text,
    footer: text,
    links: [{ label: text, url: 'https://platform.example/p/demo/blog/1' }],
    image: { kind: 'url', url: 'https://platform.example/img.png', alt: text },
  };
}

function embedLength(embed: ReturnType<typeof renderEmbed>['embeds'][number]): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

describe('renderEmbed', () => {
  it.each([...hostileTexts, hostileLongText])('renders hostile text %# inert in every field', (text) => {
    const { embeds, components } = renderEmbed(hostileMessage(text));
    const embed = embeds[0]!;
    for (const markdownText of [
      embed.title,
      embed.description,
      ...(embed.fields ?? []).flatMap((f) => [f.name, f.value]),
    ]) {
      expectInertMarkdown(markdownText ?? '');
    }
    expectNoPingOrLink(embed.author?.name ?? '');
    expectNoPingOrLink(embed.footer?.text ?? '');
    for (const row of components) for (const button of row.components) expectNoPingOrLink(button.label ?? '');
  });

  it.each([...hostileTexts, hostileLongText])('keeps hostile text %# within Discord limits', (text) => {
    const { embeds, components } = renderEmbed({
      ...hostileMessage(text),
      fields: Array(30).fill({ name: text, value: text }),
    });
    const embed = embeds[0]!;
    expect(embed.title!.length).toBeLessThanOrEqual(discordLimits.title);
    expect(embed.description!.length).toBeLessThanOrEqual(discordLimits.description);
    expect(embed.author!.name.length).toBeLessThanOrEqual(discordLimits.authorName);
    expect(embed.footer!.text.length).toBeLessThanOrEqual(discordLimits.footer);
    expect(embed.fields!.length).toBeLessThanOrEqual(discordLimits.fields);
    for (const field of embed.fields ?? []) {
      expect(field.name.length).toBeGreaterThan(0);
      expect(field.name.length).toBeLessThanOrEqual(discordLimits.fieldName);
      expect(field.value.length).toBeGreaterThan(0);
      expect(field.value.length).toBeLessThanOrEqual(discordLimits.fieldValue);
    }
    expect(embedLength(embed)).toBeLessThanOrEqual(discordLimits.embedTotal);
    for (const row of components)
      for (const b of row.components) expect(b.label!.length).toBeLessThanOrEqual(80);
  });

  it('links only trusted http(s) URLs: title URL, image and link buttons', () => {
    const { embeds, components } = renderEmbed({
      title: 'Demo',
      titleUrl: 'javascript:alert(1)',
      image: { kind: 'url', url: 'data:image/png;base64,AAAA', alt: 'chart' },
      links: [
        { label: 'Project', url: 'https://platform.example/p/demo' },
        { label: 'Bad', url: 'javascript:alert(1)' },
        { label: 'Relative', url: '/p/demo' },
      ],
    });
    expect(embeds[0]!.url).toBeUndefined();
    expect(embeds[0]!.image).toBeUndefined();
    expect(components).toEqual([
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Link,
            label: 'Project',
            url: 'https://platform.example/p/demo',
          },
        ],
      },
    ]);
  });

  it('sets the title URL from a trusted http(s) link', () => {
    const { embeds } = renderEmbed({ title: 'Demo', titleUrl: 'https://platform.example/p/demo' });
    expect(embeds[0]!.url).toBe('https://platform.example/p/demo');
  });

  it('puts more than five links into rows of five buttons', () => {
    const links = Array.from({ length: 7 }, (_, i) => ({
      label: `L${i}`,
      url: `https://platform.example/${i}`,
    }));
    const { components } = renderEmbed({ text: 'x', links });
    expect(components.map((row) => row.components.length)).toEqual([5, 2]);
  });

  it('sends an attachment image as a file referenced by attachment://', () => {
    const data = new Uint8Array([137, 80, 78, 71]);
    const { embeds, files } = renderEmbed({
      title: 'Digest',
      image: { kind: 'attachment', filename: '../../etc/funding chart.png', data, alt: '@everyone chart' },
    });
    expect(files).toHaveLength(1);
    const name = files[0]!.name!;
    expect(name).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(name.endsWith('.png')).toBe(true);
    expect(embeds[0]!.image).toEqual({ url: `attachment://${name}` });
    expectNoPingOrLink(files[0]!.description ?? '');
  });

  it("shows progress as a bar line after the text, with the core's label (never a percent of its own)", () => {
    const { embeds } = renderEmbed({
      text: 'Stand',
      progress: { current: 9960, goal: 10000, percent: 99.6, label: '99 %' },
    });
    expect(embeds[0]!.description).toBe('Stand\n\n▰▰▰▰▰▰▰▰▰▱ 99 %');
  });

  it('draws a field list as a markdown list of escaped entries (the digest lists)', () => {
    const { embeds } = renderEmbed({
      fields: [{ name: 'Rewards sold', value: '', items: ['3× Mug', '- not a list', 'kiosk_lover'] }],
    });
    expect(embeds[0]!.fields).toEqual([
      { name: 'Rewards sold', value: '- 3× Mug\n- \\- not a list\n- kiosk\\_lover', inline: false },
    ]);
  });

  it("shows a field's named channels as channel mentions, and nothing else (issue 30)", () => {
    const value = '📣 #300000000000000111 supporters; #300000000000000222 wall\n#300000000000000111 first';
    const field = renderEmbed({
      fields: [
        { name: 'Team Garden', value, channels: ['300000000000000111', '300000000000000222', 'x)|('] },
      ],
    }).embeds[0]?.fields?.[0];
    expect(field?.value).toBe(
      '📣 <#300000000000000111> supporters; <#300000000000000222> wall\n<#300000000000000111> first',
    );
    expect(field?.value).not.toContain('\u200b');
    // A channel id in user text that the core did not name stays text.
    const other = renderEmbed({ fields: [{ name: 'n', value: '#300000000000000333 <#300000000000000333>' }] })
      .embeds[0]?.fields?.[0];
    expect(other?.value).not.toMatch(/<#\d/);
  });

  it('keeps the progress bar when the text is too long', () => {
    const { embeds } = renderEmbed({
      text: 'x'.repeat(10_000),
      progress: { current: 1, goal: 2, percent: 50, label: '50%' },
    });
    expect(embeds[0]!.description!.endsWith('▰▰▰▰▰▱▱▱▱▱ 50%')).toBe(true);
    expect(embeds[0]!.description!.length).toBeLessThanOrEqual(discordLimits.description);
  });

  it('colours by tone and shows the badge as the author line', () => {
    const error = renderEmbed({ text: 'x', tone: 'error', badge: 'supporters only' }).embeds[0]!;
    const success = renderEmbed({ text: 'x', tone: 'success' }).embeds[0]!;
    expect(error.color).not.toBe(success.color);
    expect(error.author).toEqual({ name: 'supporters only' });
  });

  it('never produces an empty embed', () => {
    expect(renderEmbed({}).embeds[0]!.description).toBe('\u200b');
  });
});
