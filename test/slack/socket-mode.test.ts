import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackAdapterOptions } from '../../src/adapters/slack/create-slack-adapter.js';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { ManualClock } from '../support/manual-clock.js';
import { waitUntil } from '../support/wait-until.js';
import { deferred, type RecordingCore, recordingCore, recordingLogger, slashCommand } from './helpers.js';

const botToken = 'xoxb-1-test-bot-token';
const appToken = 'xapp-1-test-app-token';

describe('Slack adapter in Socket Mode (real Bolt SocketModeReceiver)', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter | undefined;
  let core: RecordingCore;

  /** The adapter in Socket Mode (the default) against the fake, no Web API retries; `extra` adds or replaces. */
  function socketModeAdapter(extra: Partial<SlackAdapterOptions> = {}): SlackAdapter {
    return createSlackAdapter({
      botToken,
      appToken,
      core,
      slackApiUrl: fake.apiUrl,
      retryPolicy: { retries: 0 },
      logger: recordingLogger(),
      ...extra,
    });
  }

  async function start(reply?: Parameters<typeof recordingCore>[0]): Promise<void> {
    core = recordingCore(reply);
    adapter = socketModeAdapter();
    await adapter.start();
  }

  beforeEach(async () => {
    fake = await startFakeSlack({
      botToken,
      users: [{ id: 'U0PLAIN', team_id: 'T0FAKE', name: 'plain' }],
    });
  });

  afterEach(async () => {
    await adapter?.stop();
    adapter = undefined;
    await fake.close();
  });

  it('is the default mode: connects through apps.connections.open with the app token, no public URL', async () => {
    await start();
    expect(adapter?.url).toBeUndefined();
    expect(fake.socketConnections).toBe(1);
    const open = fake.callsTo('apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]?.token).toBe(appToken);
    // auth.test checked the bot token before connecting.
    expect(fake.callsTo('auth.test')[0]?.token).toBe(botToken);
  });

  it('tells the witness when the connection opens and drops (own-message events of the gap may be lost), and reconnects', async () => {
    let interruptions = 0;
    let connections = 0;
    adapter = socketModeAdapter({
      core: recordingCore(),
      onOwnMessage: () => {},
      onOwnMessagesInterrupted: () => {
        interruptions += 1;
      },
      // Its silence from then on can speak for a dead process's doubts (stream-cover.ts).
      onOwnMessagesConnected: () => {
        connections += 1;
      },
    });
    await adapter.start();
    await waitUntil('the connection told to the witness', () => connections === 1, { timeoutMs: 10_000 });
    expect(interruptions).toBe(0);
    fake.dropSocketConnections();
    await waitUntil('the drop told to the witness', () => interruptions > 0, { timeoutMs: 10_000 });
    await waitUntil('a new Socket Mode connection', () => fake.socketConnections === 1, {
      timeoutMs: 30_000,
    });
    expect(fake.callsTo('apps.connections.open').length).toBeGreaterThanOrEqual(2);
    await waitUntil('the new connection told to the witness', () => connections === 2, { timeoutMs: 10_000 });
  });

  it('acks a slash_commands envelope by its envelope_id with an empty payload, then responds', async () => {
    await start();
    const envelopeId = fake.sendSlashCommand(
      slashCommand({ response_url: fake.responseUrl(), text: 'supporters solar-kiosk' }),
    );
    const ack = await fake.waitFor(() => fake.acks.find((a) => a.envelopeId === envelopeId), 'the ack');
    expect(ack.payload).toEqual({});

    const response = await fake.waitFor(() => fake.responses[0], 'the respond() call');
    expect(response.body.response_type).toBe('in_channel');
    expect(core.invocations[0]).toMatchObject({ name: 'supporters', options: { project: 'solar-kiosk' } });
  });

  it('acks before a slow core finishes', async () => {
    const gate = deferred<NeutralMessage>();
    const coreStarted = deferred();
    await start(() => {
      coreStarted.resolve();
      return gate.promise;
    });
    const envelopeId = fake.sendSlashCommand(slashCommand({ response_url: fake.responseUrl() }));
    await coreStarted.promise;
    await fake.waitFor(() => fake.acks.find((a) => a.envelopeId === envelopeId), 'the ack');
    expect(fake.responses).toHaveLength(0);

    gate.resolve({ text: 'done' });
    await fake.waitFor(() => fake.responses[0], 'the respond() call');
  });

  it('stop() disconnects, then waits for a command still in progress to answer', async () => {
    const gate = deferred<NeutralMessage>();
    const coreStarted = deferred();
    core = recordingCore(() => {
      coreStarted.resolve();
      return gate.promise;
    });
    adapter = socketModeAdapter({
      // The drain deadline never passes on a manual clock: only the command can end the wait.
      clock: new ManualClock(),
    });
    await adapter.start();
    fake.sendSlashCommand(slashCommand({ response_url: fake.responseUrl() }));
    await coreStarted.promise;

    let stopped = false;
    const stopping = adapter.stop().then(() => {
      stopped = true;
    });
    await fake.waitFor(() => fake.socketConnections === 0, 'the socket to close');
    expect(stopped).toBe(false);

    gate.resolve({ text: 'finished during shutdown' });
    await stopping;
    expect(fake.responses).toHaveLength(1);
  });

  it('refuses to start without an app token, saying which setting is missing', () => {
    expect(() => createSlackAdapter({ botToken, core: recordingCore(), slackApiUrl: fake.apiUrl })).toThrow(
      /app-level token \(appToken/,
    );
  });
});
