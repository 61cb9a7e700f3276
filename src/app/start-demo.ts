import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { consoleChannel, createConsoleAdapter } from '../adapters/console/index.js';
import { createApiClient, parseProjectKey } from '../api/index.js';
import { createPacingSettings } from '../core/index.js';
import { noticeKinds } from '../engine/index.js';
import { systemClock } from '../lib/clock.js';
import { systemRandom } from '../lib/random.js';
import { memoryStore } from '../lib/store.js';
import { noopMetrics, silentLogger } from '../ops/index.js';
import { demoLinkCaption, startLiveCampaign, startSimulator } from '../simulator/index.js';
import { wireFundbot } from './wire-fundbot.js';

export interface DemoOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly version: string;
  /** Simulated platform actions per minute (default 12: a notice every few seconds). */
  readonly actionsPerMinute?: number;
  /** Share of hostile names and messages, to show they arrive defused (default 0.05). */
  readonly hostileRate?: number;
}

export interface RunningDemo {
  /** Resolves when the user closes the input (Ctrl+D) or stop() was called. */
  readonly finished: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The newcomer's first minute: no credentials, no Discord or Slack app. An
 * embedded simulator plays a lively campaign, the real engine polls it over
 * HTTP, and notices and command answers appear in the terminal.
 */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { output } = options;
  const sim = await startSimulator({ seed: Date.now() % 100_000 });
  // An Enterprise key keeps the demo lively (600 requests a minute) without changing any code path.
  const key = parseProjectKey(sim.issueProjectKey(demoLinkCaption, { plan: 'enterprise' }));
  const api = createApiClient({
    baseUrl: sim.url,
    clock: systemClock,
    random: systemRandom,
    maxRateLimitRetries: 0,
  });
  const store = memoryStore();

  const wiring = wireFundbot({
    api,
    store,
    clock: systemClock,
    random: systemRandom,
    logger: silentLogger,
    metrics: noopMetrics,
    version: options.version,
    projects: [{ linkCaption: demoLinkCaption, key }],
    engineOptions: {
      targetIntervalsMs: { fundings: 3_000, wall: 4_000, blog: 10_000, project: 10_000, incentives: 15_000 },
    },
    defaultLocale: 'en',
    digestTimeZone: 'UTC',
  });
  await wiring.subscriptions.subscribe(consoleChannel, demoLinkCaption, noticeKinds, 'demo');
  // Every supporter at once, as the first screen promises: `auto` (live until 4 in an hour, then a batch
  // every 10 minutes) suits a team's channel, and stays the default there, but held the demo silent.
  await createPacingSettings(store).setKind(consoleChannel, 'supporters', { mode: 'live' });

  const chartDir = join(tmpdir(), 'fundbot-demo');
  const console = createConsoleAdapter({
    core: wiring.core,
    input: options.input,
    output,
    canAdminister: true,
    ...(process.stdout.isTTY ? { prompt: 'fundbot> ' } : {}),
    // A chart cannot be drawn in a terminal: /chart, /digest and the daily digest save it here and print its path.
    attachmentDir: chartDir,
    clock: systemClock,
  });
  // The terminal can always be printed to.
  wiring.registerAdapter(console.poster, { canPost: async () => ({ ok: true }) });
  await wiring.delivery.start();

  output.write(
    [
      '',
      `fundbot ${options.version}: demo on a simulated campaign ("${demoLinkCaption}", platform simulator at ${sim.url}).`,
      'No Discord or Slack needed: notices appear below as supporters arrive.',
      'Type /funding, /rewards, /supporters, /blog, /chart, /digest, /status or /help. Ctrl+D or Ctrl+C quits.',
      `/chart and /digest save the funding chart as a PNG in ${chartDir} and print its path.`,
      '',
      '',
    ].join('\n'),
  );

  await wiring.engine.start();
  const live = startLiveCampaign(sim, demoLinkCaption, {
    ratePerMinute: options.actionsPerMinute ?? 12,
    hostileRate: options.hostileRate ?? 0.05,
  });
  const reading = console.start();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      console.stop();
      await live.stop();
      await wiring.engine.stop();
      await wiring.delivery.stop(3_000);
      await api.close();
      await sim.close();
      await store.close();
    })();
    return stopped;
  };
  const finished = reading.then(stop);
  return { finished, stop };
}
