import { afterAll, beforeAll } from 'vitest';
import {
  createDiscordAdapter,
  type DiscordAdapter,
  type DiscordAdapterOptions,
} from '../../src/adapters/discord/index.js';
import type { DiscordAdapterLogger } from '../../src/adapters/discord/logger.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import type { CoreFixture } from '../support/core-fixture.js';
import { RecordingCore } from './recording-core.js';

export interface LogLine {
  readonly level: string;
  readonly fields: object;
  readonly message: string;
}

/** A logger that keeps every line, so tests can check what (and what not) was logged. */
export function recordingLogger(): DiscordAdapterLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (fields: object | string, message = '') =>
      void lines.push(
        typeof fields === 'string' ? { level, fields: {}, message: fields } : { level, fields, message },
      );
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The body of the callback (the first answer) the adapter sent to an interaction, once the fake has it. */
export async function interactionReply<Body>(
  fake: FakeDiscord,
  sent: { readonly id: string; readonly token: string },
): Promise<Body> {
  const request = await fake.waitForRequest(
    (r) => r.path === `/interactions/${sent.id}/${sent.token}/callback`,
  );
  return request.body as Body;
}

export interface Harness {
  readonly fake: FakeDiscord;
  readonly core: RecordingCore;
  readonly adapter: DiscordAdapter;
  readonly logger: ReturnType<typeof recordingLogger>;
  close(): Promise<void>;
}

/**
 * The discord.js adapter (gateway mode) against a fake Discord as the adapter tests run it: no REST retries, a 3 s
 * REST timeout, a deferral after 1 s; `options` names the core and may replace any of these.
 */
export function fakeDiscordAdapter(
  fake: FakeDiscord,
  options: Omit<DiscordAdapterOptions, 'token'> & { readonly token?: string },
): DiscordAdapter {
  return createDiscordAdapter({
    token: fake.token,
    restApiUrl: fake.apiUrl,
    restRetries: 0,
    restTimeoutMs: 3_000,
    deferAfterMs: 1_000,
    ...options,
  });
}

/** The real discord.js client logged in against a fresh fake Discord. */
export async function startHarness(options: { deferAfterMs?: number } = {}): Promise<Harness> {
  const fake = await startFakeDiscord();
  const core = new RecordingCore();
  const logger = recordingLogger();
  const adapter = fakeDiscordAdapter(fake, {
    core,
    logger,
    deferAfterMs: options.deferAfterMs ?? 1_000,
    drainTimeoutMs: 1_000,
  });
  try {
    await adapter.start();
  } catch (error) {
    await fake.close();
    throw error;
  }
  return {
    fake,
    core,
    adapter,
    logger,
    async close() {
      await adapter.stop();
      await fake.close();
    },
  };
}

export interface CoreAdapter {
  readonly fake: FakeDiscord;
  readonly fixture: CoreFixture;
  readonly adapter: DiscordAdapter;
}

/**
 * For a test file whose tests drive one adapter with the real command core: before them, a fake Discord (with
 * `fakeOptions`), the core fixture `build` makes (it may ask the adapter, once started, for its channel access)
 * and the adapter on that core, started; both stopped after them. The fields are set once the file's tests run.
 */
export function coreAdapterPerFile(
  build: (adapter: () => DiscordAdapter) => CoreFixture,
  fakeOptions?: Parameters<typeof startFakeDiscord>[0],
): CoreAdapter {
  const running = {} as { fake: FakeDiscord; fixture: CoreFixture; adapter: DiscordAdapter };
  beforeAll(async () => {
    running.fake = await startFakeDiscord(fakeOptions);
    running.fixture = build(() => running.adapter);
    running.adapter = fakeDiscordAdapter(running.fake, { core: running.fixture.core });
    await running.adapter.start();
  });
  afterAll(async () => {
    await running.adapter?.stop();
    await running.fake?.close();
  });
  return running;
}
