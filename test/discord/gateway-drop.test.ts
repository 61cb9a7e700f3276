/**
 * The gateway session drops (a network cut): discord.js reconnects on its own, and the adapter tells the
 * delivery pipeline's witness, whose silence about the bot's own MESSAGE_CREATE events then stops deciding
 * doubts until events flow again (src/delivery/witness.ts `interrupted`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { waitUntil } from '../support/wait-until.js';
import { fakeDiscordAdapter, recordingLogger } from './adapter-harness.js';
import { RecordingCore } from './recording-core.js';

describe('a dropped gateway session', () => {
  let fake: FakeDiscord | undefined;
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    await fake?.close();
  });

  it('is told to the witness, and the session comes back', async () => {
    fake = await startFakeDiscord();
    let interruptions = 0;
    const adapter = fakeDiscordAdapter(fake, {
      core: new RecordingCore(),
      logger: recordingLogger(),
      onOwnMessage: () => {},
      onOwnMessagesInterrupted: () => {
        interruptions += 1;
      },
    });
    await adapter.start();
    stop = () => adapter.stop();
    const sessionsBefore = fake.gatewayReceived.filter((p) => p.op === 2 || p.op === 6).length;
    expect(interruptions).toBe(0);
    fake.dropGatewayConnections();
    await waitUntil('the drop told to the witness', () => interruptions > 0, { timeoutMs: 15_000 });
    const current = fake;
    await waitUntil(
      'a new IDENTIFY or RESUME',
      () => current.gatewayReceived.filter((p) => p.op === 2 || p.op === 6).length > sessionsBefore,
      { timeoutMs: 30_000 },
    );
  });
});
