import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { postSignedCommand, slashCommand } from '../slack/helpers.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { healthzAnswers } from '../support/healthz.js';
import { freePort } from '../support/redis-server.js';
import { processStartMs } from '../support/wait-until.js';

/**
 * Store truth through the real entry point (`src/main.ts` under tsx, Slack in HTTP mode against the
 * Slack fake): a read-only store file turns /healthz 503 within one probe and a command is answered
 * "the store is down"; a deleted store file is said out loud at the next start (issue 23).
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const botToken = 'xoxb-1-store-truth-bot-token';
const signingSecret = 'store-truth-signing-secret';
/** Root ignores file permissions: a read-only file is then only read-only to another user. */
const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

let child: ChildProcessWithoutNullStreams | undefined;
let sim: Simulator | undefined;
let slack: FakeSlack | undefined;
let dir: string | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await sim?.close();
  await slack?.close();
  sim = undefined;
  slack = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Running {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly output: () => string;
  readonly opsUrl: string;
  readonly slackUrl: string;
}

async function startEntryPoint(storeFile: string): Promise<Running> {
  sim ??= await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
  slack ??= await startFakeSlack({
    botToken,
    users: [{ id: 'U0ADMIN', team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
  const configPath = join(dir ?? '', 'fundbot.config.json');
  const opsPort = await freePort();
  const slackPort = await freePort();
  writeFileSync(
    configPath,
    JSON.stringify(
      demoProjectConfig(sim, {
        store: { url: `sqlite://${storeFile}` },
        slack: { enabled: true, mode: 'http', port: slackPort },
        digest: { enabled: false },
        http: { enabled: true, port: opsPort },
      }),
    ),
  );
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: repoRoot,
    ...(nobody ?? {}),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir ?? '',
      FUNDBOT_CONFIG: configPath,
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
    },
  });
  child = proc;
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  proc.stdout.on('data', append);
  proc.stderr.on('data', append);
  await vi.waitFor(
    () => {
      if (proc.exitCode !== null) throw new Error(`exited (${proc.exitCode}):\n${output}`);
      expect(output).toContain('"fundbot is running"');
    },
    { timeout: processStartMs, interval: 50 },
  );
  return {
    proc,
    output: () => output,
    opsUrl: `http://127.0.0.1:${opsPort}`,
    slackUrl: `http://127.0.0.1:${slackPort}`,
  };
}

function stop(proc: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.kill('SIGTERM');
  });
}

/** A directory the child (maybe another user) can write: the store, its WAL and marker live there. */
function storeDir(): string {
  dir = mkdtempSync(join(tmpdir(), 'fundbot-store-truth-'));
  if (nobody) chownSync(dir, nobody.uid, nobody.gid);
  chmodSync(dir, 0o777);
  return dir;
}

// Each test starts the bot twice: a first run, then the run under test.
describe('store truth on the running process', { timeout: 2 * processStartMs + 30_000 }, () => {
  it('a read-only store file: /healthz 503 within one probe, saying what to check; a command is answered "the store is down"', async () => {
    const file = join(storeDir(), 'fundbot.sqlite');
    // A first run leaves a real store file (and its marker), then it is made read-only.
    const first = await startEntryPoint(file);
    await vi.waitFor(() => expect(existsSync(`${file}.marker`), first.output()).toBe(true), {
      timeout: 20_000,
      interval: 100,
    });
    expect(await stop(first.proc)).toBe(0);
    chmodSync(file, 0o444);

    const run = await startEntryPoint(file);
    const down = await healthzAnswers(run.opsUrl, 503, { timeoutMs: 15_000 });
    const store = JSON.parse(down.body).checks.store as { ok: boolean; detail: string };
    expect(store.ok).toBe(false);
    expect(store.detail).toMatch(/readonly database/);
    expect(store.detail).toContain(`is writable by the user fundbot runs as`);
    console.info(`read-only store: /healthz 503 ${down.ms} ms after "fundbot is running"`);

    const fake = slack as FakeSlack;
    const responseUrl = fake.responseUrl();
    const started = Date.now();
    const sent = await postSignedCommand(
      `${run.slackUrl}/slack/events`,
      signingSecret,
      slashCommand({ response_url: responseUrl, user_id: 'U0ADMIN', text: `subscribe ${demoLinkCaption}` }),
    );
    expect(sent.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000); // Slack's acknowledgement window
    const answer = await fake.waitFor(
      () => fake.responses.find((r) => responseUrl.endsWith(r.id)),
      'the /subscribe answer',
      10_000,
    );
    expect(JSON.stringify(answer.body)).toContain('The store is down; nothing is lost.');
  });

  it('a deleted store file: the next start says so in the log, /healthz and /status, until the marker is deleted', async () => {
    const file = join(storeDir(), 'fundbot.sqlite');
    const first = await startEntryPoint(file);
    await vi.waitFor(() => expect(existsSync(`${file}.marker`)).toBe(true), {
      timeout: 20_000,
      interval: 100,
    });
    expect(JSON.parse(readFileSync(`${file}.marker`, 'utf8')).projects).toEqual([demoLinkCaption]);
    expect(await stop(first.proc)).toBe(0);
    rmSync(file);

    const run = await startEntryPoint(file);
    const down = await healthzAnswers(run.opsUrl, 503, { timeoutMs: 5_000 });
    const check = JSON.parse(down.body).checks['store-data'] as { ok: boolean; detail: string };
    expect(check.ok).toBe(false);
    expect(check.detail).toContain(
      `the store is empty, but ${file}.marker says it held data (${demoLinkCaption}`,
    );
    expect(check.detail).toContain('Restore the store from your backup');
    expect(run.output()).toMatch(/"level":"error".*the store is empty, but/);

    const fake = slack as FakeSlack;
    const responseUrl = fake.responseUrl();
    await postSignedCommand(
      `${run.slackUrl}/slack/events`,
      signingSecret,
      slashCommand({ response_url: responseUrl, user_id: 'U0ADMIN', text: 'status' }),
    );
    const status = await fake.waitFor(
      () => fake.responses.find((r) => responseUrl.endsWith(r.id)),
      '/status',
      10_000,
    );
    expect(JSON.stringify(status.body)).toContain('The store was found empty (operator action needed)');

    // The operator accepts the fresh start: health recovers without a restart.
    rmSync(`${file}.marker`);
    const up = await healthzAnswers(run.opsUrl, 200, { timeoutMs: 15_000 });
    expect(JSON.parse(up.body).checks['store-data'].ok).toBe(true);
  });
});
