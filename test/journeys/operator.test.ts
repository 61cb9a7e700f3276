/**
 * Journey: what the README promises whoever runs fundbot, on `npm start` (src/main.ts under tsx): a key missing a
 * scope turns that feature off with a clear warning; a replaced key file is picked up without a restart; a
 * rejected key turns /healthz 503 naming the project; a deleted store makes the next start a first run, said
 * loudly; unrelated `*_FILE` variables of the machine are left alone. No chat platform: these are the
 * operator's concerns, seen in the logs and on /healthz.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { processStartMs, waitUntil } from '../support/wait-until.js';
import {
  type BotProcess,
  killAllBots,
  outputTail,
  startBotProcess,
  tsxEntry,
} from './harness/bot-process.js';
import { journeyProject } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';

const otherProject = 'river-cleanup';
let world: JourneyWorld;
let bot: BotProcess | undefined;
let opsPort: number;
let keyFile: string;

beforeAll(async () => {
  world = await startJourneyWorld('operator');
  world.sim.createProject({ linkCaption: otherProject, title: 'River Clean-up', plan: 'pro' });
  opsPort = await world.freePort();
});
afterEach((context) => {
  if (context.task.result?.state === 'fail' && !context.task.fails && bot) {
    console.error(`--- fundbot's output (${bot.name}) ---\n${outputTail(bot)}`);
  }
});
afterAll(async () => {
  killAllBots();
  await world?.close();
});

/** Starts fundbot on both projects; `env` adds to the environment an operator would set. */
function startOperatorBot(name: string, env: Record<string, string> = {}): BotProcess {
  const config = world.writeConfig({
    api: { baseUrl: world.sim.url },
    store: { url: world.storeUrl },
    projects: [
      { linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
      { linkCaption: otherProject, apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
    ],
    digest: { enabled: false },
    http: { enabled: true, port: opsPort },
  });
  bot = startBotProcess({
    name,
    entry: tsxEntry,
    cwd: world.dir,
    env: {
      FUNDBOT_CONFIG: config,
      // A Docker/Kubernetes secret file for one key, a plain variable for the other.
      SOLAR_KIOSK_API_KEY_FILE: keyFile,
      RIVER_CLEANUP_API_KEY: world.sim.issueProjectKey(otherProject, {
        scopes: ['project:read', 'fundings:read', 'incentives:read', 'blog:read'],
      }),
      ...env,
    },
  });
  return bot;
}

const healthz = async () => {
  const response = await fetch(`http://127.0.0.1:${opsPort}/healthz`);
  return { status: response.status, body: await response.text() };
};

describe('journey: running fundbot for your projects (the operator)', () => {
  journeyStep(
    "a key without wall:read turns wall notices off with the README's warning; the other feeds and projects run",
    undefined,
    async () => {
      keyFile = world.writeFile('solar-kiosk.key', `${world.apiKey}\n`);
      const running = startOperatorBot('fundbot (two projects)');
      await running.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
      const warning = await running.waitForLog(
        (l) => l.level === 'warn' && String(l.msg).startsWith(`the key for ${otherProject} lacks wall:read`),
        'the missing-scope warning',
        15_000,
      );
      expect(warning.msg).toContain(`the key for ${otherProject} lacks wall:read: wall notices are off`);
      await waitUntil(
        'the other feeds polled',
        () =>
          world.sim.requests.some(
            (r) => r.path === `/project/${otherProject}/fundings` && r.status === 200,
          ) &&
          world.sim.requests.some((r) => r.path === `/project/${journeyProject}/wall` && r.status === 200),
      );
      expect((await healthz()).status).toBe(200);
    },
    60_000,
  );

  journeyStep('a replaced key file is picked up without a restart', undefined, async () => {
    const running = bot!;
    const newKey = world.sim.issueProjectKey(journeyProject);
    world.sim.revokeKey(world.apiKey);
    world.writeFile('solar-kiosk.key', `${newKey}\n`);
    const swappedAt = Date.now();
    await running.waitForLog(
      /the key of solar-kiosk was replaced from SOLAR_KIOSK_API_KEY_FILE: polling goes on with it/,
      'the key replaced',
      20_000,
    );
    await waitUntil('a poll with the new key', () =>
      world.sim.requests.some(
        (r) => r.at > swappedAt && r.path === `/project/${journeyProject}/fundings` && r.status === 200,
      ),
    );
    expect(running.output()).not.toContain(newKey);
  });

  journeyStep('a key the API rejects turns /healthz 503, naming the project', undefined, async () => {
    // The replacement is revoked too, with nothing to take its place.
    world.sim.revokeKey(readFileSync(keyFile, 'utf8').trim());
    const unhealthy = await waitUntil(
      '/healthz 503',
      async () => {
        const health = await healthz();
        return health.status === 503 ? health : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(unhealthy.body).toContain(journeyProject);
    expect(unhealthy.body).toMatch(/key/);
    const { code } = await bot!.stop('SIGTERM');
    expect(code).toBe(0);
  });

  journeyStep(
    'a deleted store makes the next start a first run, and fundbot says so loudly',
    undefined,
    async () => {
      // The store's file is deleted (with its WAL): what issue 23 measured. The marker beside it vouches that it held data.
      for (const suffix of ['', '-wal', '-shm'])
        rmSync(join(world.dir, 'data', `fundbot.sqlite${suffix}`), { force: true });
      keyFile = world.writeFile('solar-kiosk.key', `${world.sim.issueProjectKey(journeyProject)}\n`);
      const running = startOperatorBot('fundbot (store deleted)');
      await running.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
      await running.waitForLog(
        (l) =>
          (l.level === 'warn' || l.level === 'error') &&
          /store/i.test(String(l.msg)) &&
          /empty/i.test(String(l.msg)),
        'a warning that the store started empty',
        5_000,
      );
    },
    60_000,
  );

  journeyStep(
    'a config file with a 60 MB value, or nested 100,000 deep, is refused with a clear message and no stack trace',
    undefined,
    async () => {
      await bot?.stop('SIGTERM').catch(() => undefined);
      const projects = [{ linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }];
      const base = `"api":{"baseUrl":"${world.sim.url}"},"projects":${JSON.stringify(projects)}`;
      const configs = {
        huge: `{${base},"locale":"${'x'.repeat(60 * 1024 * 1024)}"}`,
        deep: `{${base},"engine":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      };
      for (const [name, text] of Object.entries(configs)) {
        const config = world.writeFile(`${name}.config.json`, text);
        const run = startBotProcess({
          name: `fundbot (${name} config)`,
          entry: tsxEntry,
          cwd: world.dir,
          env: { FUNDBOT_CONFIG: config, SOLAR_KIOSK_API_KEY: world.apiKey },
        });
        expect(await run.exited(), name).toBe(1);
        expect(run.stderr(), name).toContain('fundbot cannot start');
        expect(run.output(), `${name}: no stack trace`).not.toMatch(/\n\s+at /);
      }
    },
    60_000,
  );

  journeyStep(
    'variables of the machine that merely end in _FILE (TF_CLI_CONFIG_FILE, SSL_CERT_FILE) are left alone',
    undefined,
    async () => {
      await bot?.stop('SIGTERM').catch(() => undefined);
      const running = startOperatorBot('fundbot (unrelated _FILE variables)', {
        TF_CLI_CONFIG_FILE: join(world.dir, 'no-such-terraform.rc'),
        SSL_CERT_FILE: world.writeFile('ca.pem', '-----BEGIN CERTIFICATE-----\nnot a secret\n'),
      });
      await running.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
    },
    60_000,
  );
});
