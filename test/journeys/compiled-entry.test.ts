/**
 * Journeys through the compiled entry the Docker image runs (`node dist/src/main.js`, built once per test run
 * as `npm run build` does, laid out as the image's /app): the whole chat journey on Slack over HTTP, then what
 * the image promises an operator: a missing mounted config explained, and a HEALTHCHECK that reads the
 * configured port.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { processStartMs, waitUntil } from '../support/wait-until.js';
import { killAllBots, outputTail, startBotProcess } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { compiledEntryForFile, readImageSettings } from './harness/compiled-entry.js';
import { journeyProject } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';
import { startSlackDriver } from './harness/slack-driver.js';

const compiled = compiledEntryForFile();

defineChatJourney('journey: node dist/src/main.js (the image) on Slack over HTTP', {
  name: 'compiled-slack-http',
  platform: 'slack',
  transport: 'http',
  entry: compiled,
  startDriver: () => startSlackDriver('http'),
});

describe('journey: what the image promises an operator', () => {
  let world: JourneyWorld;
  beforeAll(async () => {
    world = await startJourneyWorld('image');
  });
  afterAll(async () => {
    killAllBots();
    await world?.close();
  });

  journeyStep('without a mounted config it exits 1 and says how to mount one', undefined, async () => {
    const image = readImageSettings();
    expect(existsSync(image.env['FUNDBOT_CONFIG'] ?? '/config/fundbot.config.json')).toBe(false);
    const bot = startBotProcess({
      name: 'the image without a config',
      entry: compiled(),
      cwd: world.dir,
      env: image.env,
    });
    expect(await bot.exited(), outputTail(bot)).toBe(1);
    expect(bot.stderr()).toMatch(/mount one: docker run -v/);
    expect(bot.stdout()).not.toContain('demo on a simulated campaign');
  });

  journeyStep(
    "the Dockerfile's HEALTHCHECK passes against a config whose http.port is not the default 9464",
    undefined,
    async (context) => {
      const image = readImageSettings();
      if (await listening(9464)) {
        // Another process answers there: the check could not tell which server it reached.
        console.warn('skipped: port 9464 is taken on this machine, so the HEALTHCHECK cannot be judged');
        context.skip();
      }
      const port = await world.freePort();
      const config = world.writeConfig({
        api: { baseUrl: world.sim.url },
        store: { url: world.storeUrl },
        projects: [{ linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
        http: { enabled: true, port },
      });
      // As mounted: the image's environment, the config at the path FUNDBOT_CONFIG names, the key as an env var.
      const containerEnv = { ...image.env, FUNDBOT_CONFIG: config, SOLAR_KIOSK_API_KEY: world.apiKey };
      const bot = startBotProcess({
        name: 'the image with http.port set',
        entry: compiled(),
        cwd: world.dir,
        env: containerEnv,
      });
      await bot.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status, 'the configured port answers').toBe(200);
      const [command, ...args] = image.healthcheck;
      expect(command).toBe('node');
      // Docker runs the check inside the container: the container's environment (the image's and `-e`), its WORKDIR (/app).
      const exitCode = await promisify(execFile)(process.execPath, args, {
        env: containerEnv,
        cwd: compiled().appDir,
        timeout: 10_000,
      }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
      expect(exitCode, 'the HEALTHCHECK exit code').toBe(0);
    },
    60_000,
  );

  journeyStep(
    'a polling ceiling below what the key allows is said on /healthz and /metrics, with what to do',
    undefined,
    async () => {
      const port = await world.freePort();
      // The world's key allows about 10 requests a second (1,000,000 a day); the process may poll 2.
      const config = world.writeConfig({
        api: { baseUrl: world.sim.url },
        store: { url: world.storeUrl },
        projects: [{ linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
        http: { enabled: true, port },
        engine: { maxRequestsPerSecond: 2 },
      });
      const bot = startBotProcess({
        name: 'the image with a low polling ceiling',
        entry: compiled(),
        cwd: world.dir,
        env: { ...readImageSettings().env, FUNDBOT_CONFIG: config, SOLAR_KIOSK_API_KEY: world.apiKey },
      });
      await bot.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
      let detail = '';
      await waitUntil(
        'the polling-ceiling check of /healthz to say the ceiling sets the pace',
        async () => {
          const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as {
            checks: Record<string, { ok: boolean; detail: string }>;
          };
          detail = health.checks['polling-ceiling']?.detail ?? '';
          return /sets the pace, not the keys/.test(detail);
        },
        { timeoutMs: 20_000, everyMs: 250 },
      );
      expect(detail).toMatch(/this process polls at most 2 \(engine\.maxRequestsPerSecond\)/);
      expect(detail).toMatch(/add a replica/);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/^fundbot_polling_ceiling_binds 1$/m);
      expect(metrics).toMatch(/^fundbot_polling_ceiling_requests_per_second 2$/m);
    },
    60_000,
  );
});

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
