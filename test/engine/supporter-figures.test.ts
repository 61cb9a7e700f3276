import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConsoleMessage } from '../../src/adapters/console/render-console-message.js';
import { renderEmbed } from '../../src/adapters/discord/render-embed.js';
import { renderBlocks } from '../../src/adapters/slack/render-blocks.js';
import { renderNotice } from '../../src/core/notices/render-notice.js';
import { lc, runFor, step, t0, useEngineHarness } from './harness.js';

const startHarness = useEngineHarness();

/** The README's first example: the notice a newcomer is promised. */
function readmeExample(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /```\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no code block');
  return block;
}

/** 15 supporters before t0, €3,800 together. */
const fifteenSupporters = Array.from({ length: 15 }, (_, i) => ({
  at: t0 - (15 - i) * 60_000,
  amount: i === 0 ? 300 : 250,
}));

/** The demo's polling targets (src/app/start-demo.ts): the project every 10 s. */
const demoTargets = { fundings: 3_000, wall: 4_000, blog: 10_000, project: 10_000, incentives: 15_000 };

describe('a supporter notice carries the figures read in its own cycle (issue 23: 0 of 61 did)', () => {
  it("prints the README's first example, word for word, on the console, Slack and Discord", async () => {
    const h = await startHarness({ project: { supporters: fifteenSupporters } });
    await step(h);
    await runFor(h, 5 * 60_000);
    h.recorder.clear();
    h.project.addSupporter({ displayName: 'Małgosia Öztürk', amount: 112 });
    await runFor(h, 2 * 60_000);
    const [event] = h.recorder.ofType('supporter');
    expect(event).toMatchObject({ supporterCount: 16, fundingTotal: 3_912 });
    const notice = renderNotice(event!, 'en', 'UTC');
    expect(renderConsoleMessage(notice)).toBe(readmeExample());

    const [title, figures, footer] = readmeExample().split('\n');
    const { blocks } = renderBlocks(notice);
    expect(blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
      { type: 'section', text: { type: 'plain_text', text: figures, emoji: true } },
      { type: 'context', elements: [{ type: 'plain_text', text: footer?.replace(/^— /, ''), emoji: true }] },
    ]);
    const [embed] = renderEmbed(notice).embeds;
    expect([embed?.title, embed?.description, embed?.footer?.text]).toEqual([
      title,
      figures,
      footer?.replace(/^— /, ''),
    ]);
  });

  it('on the default plan: every supporter of a calm campaign (one every 90 s) gets the count and total after it', async () => {
    const h = await startHarness({ project: { supporters: fifteenSupporters } });
    await step(h);
    await runFor(h, 5 * 60_000);
    h.recorder.clear();
    const expected: { count: number; total: number }[] = [];
    for (let i = 1; i <= 12; i++) {
      h.project.addSupporter({ amount: 10 });
      expected.push({ count: 15 + i, total: 3_800 + 10 * i });
      await runFor(h, 90_000);
    }
    const notices = h.recorder.ofType('supporter');
    expect(notices.map((n) => ({ count: n.supporterCount, total: n.fundingTotal }))).toEqual(expected);
  });

  it("at the demo's pace (its Enterprise plan, the project read every 10 s, a supporter every 15 s): every notice", async () => {
    const h = await startHarness({
      project: { supporters: fifteenSupporters },
      limits: { perMinute: 600, perDay: 100_000 },
      engine: { targetIntervalsMs: demoTargets },
    });
    await step(h);
    await runFor(h, 60_000);
    h.recorder.clear();
    for (let i = 0; i < 24; i++) {
      h.project.addSupporter({ amount: 10 });
      await runFor(h, 15_000);
    }
    const notices = h.recorder.ofType('supporter');
    expect(notices).toHaveLength(24);
    // Every one (the planned 10 s reads are taken early when a supporter arrives): 23 of 24 before a read
    // whose next one drew a long jitter counted as not due within the interval.
    expect(notices.filter((n) => n.supporterCount !== null).length).toBeGreaterThanOrEqual(24);
    // The count a notice names is the project's after that supporter: never one read before it.
    notices.forEach((n, i) => {
      if (n.supporterCount !== null) expect(n.supporterCount).toBe(16 + i);
    });
  });

  it('never reads the project more often than the plan: a busy cycle without an early read goes without figures', async () => {
    const h = await startHarness({ project: { supporters: fifteenSupporters } });
    await step(h);
    await runFor(h, 5 * 60_000);
    const plan =
      (await h.engine.readModel.status(lc)).feeds.find((f) => f.feed === 'project')?.intervalMs ?? 0;
    const from = h.sim.requests.length;
    h.recorder.clear();
    const halfHour = 30 * 60_000;
    for (let t = 0; t < halfHour; t += 15_000) {
      h.project.addSupporter({ amount: 1 });
      await runFor(h, 15_000);
    }
    const projectReads = h.sim.requests.slice(from).filter((r) => r.path.endsWith(`/project/${lc}`)).length;
    expect(projectReads).toBeLessThanOrEqual(Math.ceil(halfHour / plan) + 1);
    const notices = h.recorder.ofType('supporter');
    // Supporters come faster than the plan reads the project: nearly every planned read is taken
    // early for a supporter cycle (measured 38 notices with figures for 43 planned reads)...
    const withFigures = notices.filter((n) => n.supporterCount !== null);
    expect(withFigures.length).toBeGreaterThan(0.75 * (halfHour / plan));
    // ...and every figure is the project's after its supporter.
    notices.forEach((n, i) => {
      if (n.supporterCount !== null) expect([n.supporterCount, n.fundingTotal]).toEqual([16 + i, 3_801 + i]);
    });
  });
});
