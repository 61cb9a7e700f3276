/**
 * Docker's HEALTHCHECK, as the Dockerfile names it, against the real bot listening on a port
 * other than the default 9464: it reads the configuration as the bot does and asks /healthz
 * there (the fixed `127.0.0.1:9464` probe called such a bot "unhealthy" while it answered 200).
 * No Docker engine here: the Dockerfile's command is run as the image would run it, with its
 * `dist/src/*.js` entry mapped to the TypeScript source under tsx.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { freePort } from '../support/redis-server.js';
import { repoRoot, spawnBot } from './helpers/spawned-bot.js';

/** The exec form of the Dockerfile's HEALTHCHECK, e.g. ["node", "dist/src/healthcheck.js"]. */
function dockerHealthcheck(): string[] {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  const command = /^HEALTHCHECK[^\n]*(?:\\\n[^\n]*)*?CMD (\[[^\n]*\])/m.exec(dockerfile)?.[1];
  if (!command) throw new Error('the Dockerfile has no HEALTHCHECK with an exec-form CMD');
  return JSON.parse(command) as string[];
}

/** Runs the HEALTHCHECK command as the container would, with the bot's environment. */
function probe(env: Record<string, string>): { code: number | null; output: string } {
  const [program, entry, ...rest] = dockerHealthcheck();
  expect(program).toBe('node');
  const source = /^dist\/(src\/.+)\.js$/.exec(entry ?? '')?.[1];
  expect(source, `the HEALTHCHECK runs a compiled entry of src/: ${entry}`).toBeDefined();
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, `${source}.ts`), ...rest], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    timeout: 30_000,
  });
  return { code: run.status, output: run.stdout + run.stderr };
}

describe('the Docker HEALTHCHECK', () => {
  it('asks /healthz on the configured http.port: healthy while the bot runs, unhealthy once it stopped', async () => {
    const sim = closeAfterTest(
      await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } }),
    );
    const port = await freePort();
    expect(port).not.toBe(9464);
    const env = {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      // As the image sets it: the health server on every interface, probed on the loopback address.
      FUNDBOT_HEALTH_HOST: '0.0.0.0',
    };
    const bot = await spawnBot({
      config: demoProjectConfig(sim, {
        digest: { enabled: false },
        http: { enabled: true, port },
      }),
      env,
    });
    const withConfig = { ...env, FUNDBOT_CONFIG: join(bot.dir, 'fundbot.config.json') };

    const healthy = probe(withConfig);
    expect(healthy).toEqual({ code: 0, output: `http://127.0.0.1:${port}/healthz: 200\n` });
    // PORT overrides http.port for the bot and for its healthcheck alike.
    expect(probe({ ...withConfig, PORT: String(port) }).code).toBe(0);

    expect(await bot.stop()).toBe(0);
    const stopped = probe(withConfig);
    expect(stopped.code).toBe(1);
    expect(stopped.output).toContain(`http://127.0.0.1:${port}/healthz: no answer`);
  }, 90_000);
});
