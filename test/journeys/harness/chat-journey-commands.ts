/**
 * The chat journey's commands: pacing and the daily thread set by an admin, then every command a member can
 * run, each answered within the platform's 3-second window; the chart and the digest preview with their PNG;
 * a second channel in German that subscribes and unsubscribes; health and metrics.
 */
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait-until.js';
import { type ChatDriver, isPng } from './chat-driver.js';
import { supporterOnlyPost } from './chat-journey-notices.js';
import { type ChatJourneyState, euros, postsWith, waitForPost } from './chat-journey-state.js';
import { journeyProject, journeyRewards, journeyTitle } from './journey-project.js';
import { journeyStep } from './known-defects.js';

export function registerCommandSteps<D extends ChatDriver>(state: ChatJourneyState<D>): void {
  journeyStep('/pacing supporters live (admin), and /subscriptions shows it', undefined, async () => {
    const { driver } = state;
    const set = await driver.command('pacing', ['supporters', 'live'], { admin: true }).answer();
    expect(set.visibility).toBe('private');
    expect(set.text).toContain('supporters in this channel: live');
    const listed = await driver.command('subscriptions').answer();
    expect(listed.text).toContain('supporters (live)');
  });

  journeyStep(
    "/thread on: the next supporter goes into the day's thread, under one message with the running total",
    undefined,
    async () => {
      const { driver, world } = state;
      const on = await driver.command('thread', ['on'], { admin: true }).answer();
      expect(on.text).toContain('Daily thread on');
      world.project.addSupporter({ displayName: 'Jonas Weber', amount: 40 });
      const parent = await waitForPost(driver, '🎉 Supporters on', "the daily thread's parent message");
      state.found.threadParent = parent;
      expect(parent.channel).toBe(driver.channel);
      expect(parent.threadOf).toBeUndefined();
      expect(parent.text).toMatch(/1 new supporter today/);
      expect(parent.text).toContain('Jonas Weber');
      const reply = await waitForPost(
        driver,
        '🎉 New supporter: Jonas Weber',
        'the supporter notice in the thread',
      );
      expect(reply.threadOf).toBe(parent.id);
    },
  );

  journeyStep(
    "the daily thread's parent carries the supporter count, the total and a progress bar to the goal",
    undefined,
    async () => {
      const parent = state.found.threadParent!;
      const count = new RegExp(`supporter count ${state.world.project.supporterCount}\\b`);
      // Posted with the figures its supporter's cycle read; without them (the project not re-read in that
      // cycle) the next edit brings them, at most 30 s later (README: edited in place as the day goes on).
      const latest = await waitUntil(
        'the daily thread parent with the supporter count',
        () => {
          const text = [
            ...state.driver
              .edits()
              .filter((e) => e.id === parent.id)
              .map((e) => e.text),
            parent.text,
          ].at(-1);
          return text !== undefined && count.test(text) ? text : undefined;
        },
        { timeoutMs: 40_000 },
      );
      expect(latest).toContain(`total ${euros(state.world.project.currentFunding)}`);
      expect(latest).toMatch(/[▰▱]{10} \d+%/);
    },
    45_000,
  );

  journeyStep(
    'twelve supporters in one poll are one notice: "🎉 12 new supporters" with some names "and N more"',
    undefined,
    async () => {
      const { driver, world } = state;
      // One synchronous loop in the simulator's own process: no poll can fall in between.
      for (let i = 1; i <= 12; i++)
        world.project.addSupporter({ displayName: `Rush Backer ${i}`, amount: 10 });
      const burst = await waitForPost(driver, '🎉 12 new supporters', 'the burst notice');
      const shown = burst.text.match(/Rush Backer \d+/g) ?? [];
      const more = Number(/and (\d+) more/.exec(burst.text)?.[1] ?? 0);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length + more).toBe(12);
      expect(burst.threadOf).toBe(state.found.threadParent?.id);
      expect(postsWith(driver, 'Rush Backer')).toHaveLength(1);
    },
  );

  journeyStep(
    "every member's command is answered within the platform's 3 seconds: /funding /rewards /reward /supporters /blog /status /help",
    undefined,
    async () => {
      const { driver, world } = state;
      // The project is re-read within 45 s of new supporters (README, "The API budget"), not at once: the rush's
      // last supporter may have come after the last read. /funding answers from that read, so its figures are
      // checked once a read has followed the last supporter.
      const lastSupport = Math.max(
        ...world.project.history.filter((h) => h.type === 'supporter').map((h) => h.at),
      );
      await waitUntil(
        'a project read after the last supporter',
        () =>
          world.sim.requests.some(
            (r) => r.at >= lastSupport && r.status === 200 && r.path === `/project/${journeyProject}`,
          ),
        { timeoutMs: 50_000 },
      );
      const answers = new Map<string, string>();
      for (const [name, args] of [
        ['funding', []],
        ['rewards', []],
        ['reward', [String(journeyRewards.lastKit)]],
        ['supporters', []],
        ['blog', []],
        ['status', []],
      ] as const) {
        const run = driver.command(name, args);
        const answer = await run.answer();
        expect(answer.visibility, `/${name} answers in the channel`).toBe('public');
        expect(await run.acknowledgedWithinMs(), `/${name} acknowledged in time`).toBeLessThan(3_000);
        answers.set(name, answer.text);
      }
      const funding = answers.get('funding') ?? '';
      expect(funding).toContain(journeyTitle);
      expect(funding).toContain(`${euros(world.project.currentFunding)} of ${euros(10_000)}`);
      expect(funding).toMatch(new RegExp(`Supporters\\W+${world.project.supporterCount}\\b`));
      expect(funding).toMatch(/[▰▱]{10} \d+%/);
      expect(funding).toMatch(/All-or-nothing: €[\d,]+ still needed/);
      expect(funding).toContain('Funding phase');
      expect(funding).toMatch(/Pace/);
      expect(funding).toMatch(/Updated/);
      expect(answers.get('rewards')).toContain('Thank-you postcard');
      expect(answers.get('rewards')).toMatch(/Early-bird kiosk kit[\s\S]*sold out/);
      expect(answers.get('reward')).toContain('Early-bird kiosk kit');
      // The twelve of the rush came in the same second: which ten of them are "latest" is a tie.
      expect(answers.get('supporters')).toContain('Rush Backer');
      // The withdrawn support is no longer in the public list.
      expect(answers.get('supporters')).not.toContain('Małgosia Öztürk');
      expect(answers.get('blog')).toMatch(new RegExp(`${supporterOnlyPost.title}[\\s\\S]*supporters only`));
      expect(answers.get('blog')).not.toContain('SUPPORTER-ONLY-BODY');
      expect(answers.get('status')).toMatch(/fundbot \d+\.\d+\.\d+/);
      expect(answers.get('status')).toMatch(/last poll/);
    },
    40_000,
  );

  journeyStep('/help lists every command, as the platform types it', undefined, async () => {
    const run = state.driver.command('help');
    const help = await run.answer();
    expect(await run.acknowledgedWithinMs()).toBeLessThan(3_000);
    for (const name of [
      'funding',
      'rewards',
      'supporters',
      'blog',
      'chart',
      'digest',
      'subscribe',
      'thread',
    ]) {
      expect(help.text).toContain(state.driver.platform === 'slack' ? `/fundbot ${name}` : `/${name}`);
    }
  });

  journeyStep('a mistake gets a private answer that says what to type', undefined, async () => {
    const answer = await state.driver.command('funding', ['no-such-project']).answer();
    expect(answer.visibility).toBe('private');
    expect(answer.text).toContain(`Watched projects: ${journeyProject}`);
  });

  journeyStep('/chart answers in the channel with the funding chart as a PNG', undefined, async () => {
    const answer = await state.driver.command('chart').answer(15_000);
    expect(answer.text).not.toMatch(/went wrong/);
    expect(answer.visibility).toBe('public');
    expect(answer.files.some(isPng), 'a PNG attached').toBe(true);
  });

  journeyStep("/digest previews today's digest with its chart as a PNG", undefined, async () => {
    const answer = await state.driver.command('digest').answer(15_000);
    expect(answer.text).not.toMatch(/went wrong/);
    expect(answer.visibility).toBe('public');
    expect(answer.text).toContain(`Daily digest: ${journeyTitle}`);
    expect(answer.files.some(isPng), 'a PNG attached').toBe(true);
  });

  journeyStep(
    'a second channel: /language de, /subscribe wall blog, /funding in German, /unsubscribe blog, /subscriptions',
    undefined,
    async () => {
      const { driver } = state;
      const channel = driver.otherChannel;
      const language = await driver.command('language', ['de'], { admin: true, channel }).answer();
      expect(language.text).toContain('Dieser Kanal spricht jetzt Deutsch.');
      const subscribe = driver.command('subscribe', [journeyProject, 'wall', 'blog'], {
        admin: true,
        channel,
      });
      expect((await subscribe.answer()).visibility).toBe('private');
      const funding = await driver.command('funding', [], { channel }).answer();
      expect(funding.text).toMatch(/Finanzierung/);
      const unsubscribe = await driver
        .command('unsubscribe', [journeyProject, 'blog'], { admin: true, channel })
        .answer();
      expect(unsubscribe.visibility).toBe('private');
      const listed = await driver.command('subscriptions', [], { channel }).answer();
      expect(listed.text).toMatch(/wall \(live\)/);
      expect(listed.text).not.toMatch(/blog \(/);
      // The main channel kept its subscription.
      const main = await driver.command('subscriptions').answer();
      expect(main.text).toContain(journeyTitle);
    },
  );

  journeyStep('/healthz answers 200 and /metrics counts polls, notices and commands', undefined, async () => {
    const base = `http://127.0.0.1:${state.opsPort}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/fundbot_polls_total\{[^}]*feed="fundings"[^}]*result="ok"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_notices_total\{[^}]*kind="supporters"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_command_duration_seconds_count\{[^}]*command="funding"/);
    expect(metrics).toMatch(/fundbot_api_budget_remaining\{[^}]*window="day"[^}]*\} [1-9]/);
    for (const secret of [...state.driver.secrets, state.world.apiKey]) expect(metrics).not.toContain(secret);
  });
}
