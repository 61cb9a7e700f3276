/**
 * Issue 24, hardening: on a CPU-busy process Discord HTTP interactions are deferred well inside Discord's
 * 3 s, because the deferral is timed from the request's arrival (0.5 s), not from when the handler got the
 * CPU. Here the replay check's store is slow (1.2 s, as on a busy machine) and the event loop is kept busy
 * in 40 ms slices; the client enforces Discord's rule: an answer after 3 s counts as lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDiscordHttpAdapter,
  type DiscordHttpAdapter,
} from '../../src/adapters/discord/http-interactions/index.js';
import type { CommandInvocation, NeutralMessage } from '../../src/core/index.js';
import { systemClock } from '../../src/lib/clock.js';
import { type Claims, memoryClaims } from '../../src/lib/coordination/claims.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { type SignedInteractions, signedInteractions } from '../fakes/discord/signed-interactions.js';
import { waitUntil } from '../support/wait-until.js';
import { recordingLogger } from './adapter-harness.js';
import { RecordingCore } from './recording-core.js';

/** A core that needs 1.5 s for every command (a slow API read). */
class SlowCore extends RecordingCore {
  override async execute(invocation: CommandInvocation): Promise<NeutralMessage> {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return super.execute(invocation);
  }
}

/** Claims in memory behind a store that answers after `ms` (a store on a loaded machine). */
function slowClaims(ms: number): Claims {
  const inner = memoryClaims(systemClock, 'busy');
  return {
    claimOnce: async (key, ttl) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return inner.claimOnce(key, ttl);
    },
    giveBack: (key) => inner.giveBack(key),
  };
}

let fake: FakeDiscord;
let discord: SignedInteractions;
let adapter: DiscordHttpAdapter;
let url: string;

beforeAll(async () => {
  fake = await startFakeDiscord();
  discord = signedInteractions(fake);
  adapter = createDiscordHttpAdapter({
    token: fake.token,
    applicationId: fake.applicationId,
    publicKey: discord.publicKeyHex,
    core: new SlowCore(),
    logger: recordingLogger(),
    host: '127.0.0.1',
    port: 0,
    restApiUrl: fake.apiUrl,
    restRetries: 0,
    claims: slowClaims(1_200),
    drainTimeoutMs: 3_000,
  });
  await adapter.start();
  url = adapter.url ?? '';
});
afterAll(async () => {
  await adapter?.stop();
  await fake?.close();
});

describe('Discord HTTP interactions on a busy process', () => {
  it('defers within Discord 3 s of the request, timed from its arrival (default 0.5 s)', async () => {
    let busy = true;
    const burn = () => {
      if (!busy) return;
      const until = Date.now() + 40;
      while (Date.now() < until) {}
      setImmediate(burn);
    };
    setImmediate(burn);
    try {
      const sentAt = Date.now();
      const answers = await Promise.all(
        [1, 2, 3].map(() => discord.post(url, discord.chatInput({ command: 'funding' }))),
      );
      const elapsed = Date.now() - sentAt;
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect((answer.body as { type: number }).type).toBe(5);
      }
      // 1.2 s store + 0.5 s from arrival, plus the busy slices: inside Discord's 3 s, the bound that matters (it
      // was 1.2 + 2 s before, which fails it). Not tighter: a loaded machine adds its own slices to the test's.
      expect(elapsed).toBeLessThan(3_000);
    } finally {
      busy = false;
    }
    // The deferred answers are completed afterwards through the webhook.
    await waitUntil(
      'three deferred answers completed',
      () => fake.requests.filter((r) => r.method === 'PATCH').length >= 3,
      { timeoutMs: 5_000, everyMs: 50 },
    );
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(3);
  }, 20_000);
});
