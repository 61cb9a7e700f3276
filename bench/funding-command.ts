/**
 * Bench section: /funding answered from the engine's cache during a busy minute.
 *
 * A real engine polls the simulator (Pro limits) on a virtual clock while a
 * supporter arrives every 5 seconds; 1,000 /funding commands are spread evenly
 * over one minute. Each is handled in-process exactly as an adapter would:
 * the command core answers from the read model, then the answer is rendered as
 * a Discord embed and as Slack blocks. Figures:
 * - fundingCmdP99Ms: p99 wall time of one command's handling (core + both renderers);
 * - fundingCmdApiRequests: API requests the commands themselves caused (the
 *   engine's own polls are not counted; they keep the cache fresh).
 */
import { performance } from 'node:perf_hooks';
import { renderEmbed } from '../src/adapters/discord/index.js';
import { renderBlocks } from '../src/adapters/slack/index.js';
import { parseProjectKey } from '../src/api/index.js';
import {
  type CommandInvocation,
  createCommandCore,
  createSettingsStore,
  createSubscriptionStore,
} from '../src/core/index.js';
import { createEngine } from '../src/engine/index.js';
import { seededRandom } from '../src/lib/random.js';
import { memoryStore } from '../src/lib/store.js';
import { demoLinkCaption, startSimulator } from '../src/simulator/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import type { BenchSection, Figures } from './section.js';
import { virtualClockClient } from './virtual-clock-client.js';

const COMMANDS = 1_000;
const MINUTE_MS = 60_000;
const SUPPORTER_EVERY_MS = 5_000;

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

async function measureFundingCommand(): Promise<Figures> {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 18, 0, 0));
  const sim = await startSimulator({ clock, seed: 11 });
  const api = virtualClockClient(sim.url, clock);
  const store = memoryStore();
  try {
    const key = parseProjectKey(sim.issueProjectKey(demoLinkCaption));
    const engine = createEngine({
      api,
      store,
      clock,
      random: seededRandom(5),
      projects: [{ linkCaption: demoLinkCaption, key }],
      deliver: async () => {},
    });
    const core = createCommandCore({
      readModel: engine.readModel,
      subscriptions: createSubscriptionStore(store, { clock }),
      settings: createSettingsStore(store),
      clock,
      version: 'bench',
    });
    const invocation: CommandInvocation = {
      name: 'funding',
      options: { project: demoLinkCaption },
      context: {
        user: { id: 'u1', displayName: 'bench' },
        channel: { platform: 'discord', workspaceId: 'g1', channelId: 'c1' },
        canAdminister: false,
      },
    };
    const runDuePolls = async () => {
      while (engine.nextDueAt() <= clock.now()) await engine.runDue();
    };

    await runDuePolls(); // the baseline: the engine's first cycle fills the cache
    const start = clock.now();
    const before = engine.metrics().requests.command;
    const durations: number[] = [];
    let nextSupporterAt = start + SUPPORTER_EVERY_MS;
    for (let i = 0; i < COMMANDS; i += 1) {
      clock.set(start + Math.floor((i * MINUTE_MS) / COMMANDS));
      if (clock.now() >= nextSupporterAt) {
        sim.project(demoLinkCaption).addSupporter({ at: clock.now() });
        nextSupporterAt += SUPPORTER_EVERY_MS;
      }
      await runDuePolls();
      const t0 = performance.now();
      const message = await core.execute(invocation);
      renderEmbed(message);
      renderBlocks(message);
      durations.push(performance.now() - t0);
    }
    const commandRequests = engine.metrics().requests.command - before;
    durations.sort((a, b) => a - b);
    return {
      fundingCmdP99Ms: Math.round(percentile(durations, 99) * 100) / 100,
      fundingCmdApiRequests: commandRequests,
      details: {
        fundingCmdP50Ms: Math.round(percentile(durations, 50) * 1000) / 1000,
        fundingCmdMaxMs: Math.round((durations.at(-1) ?? 0) * 100) / 100,
        fundingCmdCount: durations.length,
        fundingCmdEnginePollRequestsDuringMinute: Object.entries(engine.metrics().requests)
          .filter(([feed]) => feed !== 'command')
          .reduce((sum, [, n]) => sum + n, 0),
      },
    };
  } finally {
    await api.close();
    await sim.close();
    await store.close();
  }
}

export const fundingCommandSection: BenchSection = {
  name: '/funding from the cache',
  run: measureFundingCommand,
};
