import {
  createDiscordAdapter,
  type DiscordAdapter,
  type DiscordAdapterOptions,
} from '../../src/adapters/discord/index.js';
import type { DiscordAdapterLogger } from '../../src/adapters/discord/logger.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
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
