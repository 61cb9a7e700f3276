import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/start-bot.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import type { FakeSlack } from '../fakes/slack/fake-slack.js';
import { recordingLogger } from '../slack/helpers.js';
import { healthzAnswers } from '../support/healthz.js';
import { type RedisServer, redisUnavailableReason, startRedisServer } from '../support/redis-server.js';
import { configOf } from './helpers/in-process-bot.js';
import { adminCommand, slackSocketConfig, startLeadsFakeSlack } from './helpers/slack-socket-bot.js';

const unavailable = redisUnavailableReason();
if (unavailable !== undefined) console.warn(`skipping the Redis outage test: ${unavailable}`);

let sim: Simulator | undefined;
let slack: FakeSlack | undefined;
let bot: RunningBot | undefined;
let redis: RedisServer | undefined;

afterEach(async () => {
  for (const step of bot?.shutdownSteps ?? []) await step.stop().catch(() => undefined);
  bot = undefined;
  await slack?.close();
  await sim?.close();
  await redis?.stop();
  redis = undefined;
});

describe('a Redis store that stops and starts again (real redis-server)', () => {
  it.skipIf(unavailable !== undefined)(
    'turns /healthz 503 naming the store, logs what to check, recovers on its own, and delivers every notice once',
    async (ctx) => {
      try {
        redis = await startRedisServer({ persistence: 'aof' });
      } catch (error) {
        console.warn(`skipping the Redis outage test: redis-server did not start (${String(error)})`);
        ctx.skip();
        return;
      }
      sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
      slack = await startLeadsFakeSlack();
      const { json, env } = await slackSocketConfig(sim, { store: { url: redis.url } });
      const config = configOf(json, env);
      const logger = recordingLogger();
      bot = await startBot(config, logger, 'outage', {
        slackApiUrl: slack.apiUrl,
        engineOptions: {
          targetIntervalsMs: { fundings: 200, project: 500, wall: 500, blog: 1_000, incentives: 1_000 },
        },
      });
      const fake = slack;
      const opsUrl = bot.opsUrl ?? '';
      const noticesFor = (name: string) =>
        fake.callsTo('chat.postMessage').filter((c) => JSON.stringify(c.args).includes(name));

      await adminCommand(fake, `subscribe ${demoLinkCaption}`);
      sim.project(demoLinkCaption).addSupporter({ displayName: 'Before Outage' });
      await fake.waitFor(() => noticesFor('Before Outage')[0], 'the notice before the outage', 15_000);
      await healthzAnswers(opsUrl, 200, { timeoutMs: 10_000 });

      // Redis goes away; a supporter arrives meanwhile.
      await redis.halt();
      sim.project(demoLinkCaption).addSupporter({ displayName: 'During Outage' });
      const down = await healthzAnswers(opsUrl, 503, { timeoutMs: 30_000 });
      expect(JSON.parse(down.body).checks.store).toEqual({
        ok: false,
        detail: expect.stringContaining(`Redis at 127.0.0.1:${redis.port} fails since`),
      });
      const errors = logger.records.filter(
        (r) => r.level === 'error' && r.msg?.includes('the store does not answer'),
      );
      expect(errors).toHaveLength(1);
      expect(errors[0]?.msg).toContain(`check that Redis at 127.0.0.1:${redis.port} is running`);
      // /status in chat names the same cause, in the channel's language.
      const statusAnswer = await adminCommand(fake, 'status', 'fundbot status for', 15_000);
      expect(JSON.stringify(statusAnswer.body)).toContain('The store does not answer (Redis at 127.0.0.1');

      // Redis comes back with its data: health recovers, the waiting supporter is announced once.
      await redis.start();
      const up = await healthzAnswers(opsUrl, 200, { timeoutMs: 60_000 });
      await fake.waitFor(
        () => noticesFor('During Outage')[0],
        'the notice of the supporter during the outage',
        60_000,
      );
      sim.project(demoLinkCaption).addSupporter({ displayName: 'After Outage' });
      await fake.waitFor(() => noticesFor('After Outage')[0], 'the notice after the outage', 20_000);
      // Let a few more cycles run (counted in polls, not waited for in time): a duplicate would show up now.
      const fundingsPolls = () =>
        (sim?.requests ?? []).filter((r) => r.path === `/project/${demoLinkCaption}/fundings`).length;
      const pollsBefore = fundingsPolls();
      await vi.waitFor(() => expect(fundingsPolls()).toBeGreaterThanOrEqual(pollsBefore + 4), {
        timeout: 20_000,
        interval: 20,
      });
      expect(noticesFor('Before Outage')).toHaveLength(1);
      expect(noticesFor('During Outage')).toHaveLength(1);
      expect(noticesFor('After Outage')).toHaveLength(1);
      expect(logger.records.some((r) => r.msg?.includes('the store answers again'))).toBe(true);
      console.info(
        `Redis outage: /healthz 503 after ${down.ms} ms, 200 again ${up.ms} ms after Redis returned`,
      );
    },
    120_000,
  );
});
