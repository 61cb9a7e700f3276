import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../src/adapters/slack/index.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import {
  answerToSignedCommand,
  deferred,
  postSignedCommand,
  type RecordingCore,
  recordingCore,
  type SigningOptions,
  slashCommand,
} from './helpers.js';
import { httpModeAdapter } from './http-mode-adapter.js';

const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
const botToken = 'xoxb-1-test-bot-token';

describe('Slack adapter in HTTP mode (real Bolt HTTPReceiver)', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter | undefined;
  let core: RecordingCore;
  let url: string;

  async function start(reply?: Parameters<typeof recordingCore>[0], admins: string[] = []): Promise<void> {
    core = recordingCore(reply);
    adapter = httpModeAdapter({
      botToken,
      signingSecret,
      core,
      admins,
      apiUrl: fake.apiUrl,
    });
    await adapter.start();
    url = adapter.url ?? '';
  }

  /** Posts the default command (/fundbot funding) signed with `secret` and the signing `options`. */
  const postCommand = (options: SigningOptions = {}, secret = signingSecret) =>
    postSignedCommand(url, secret, slashCommand({ response_url: fake.responseUrl() }), options);

  beforeEach(async () => {
    fake = await startFakeSlack({
      botToken,
      users: [
        { id: 'U0PLAIN', team_id: 'T0FAKE', name: 'plain', is_admin: false, locale: 'de-DE' },
        { id: 'U0ADMIN', team_id: 'T0FAKE', name: 'admin', is_admin: true },
        { id: 'U0OWNER', team_id: 'T0FAKE', name: 'owner', is_owner: true },
        { id: 'U0LISTED', team_id: 'T0FAKE', name: 'listed', is_admin: false },
        { id: 'U0FOREIGN', team_id: 'T0OTHER', name: 'foreign admin', is_admin: true },
      ],
    });
  });

  afterEach(async () => {
    await adapter?.stop();
    adapter = undefined;
    await fake.close();
  });

  it('acks a signed /funding with 200 and answers in the channel through response_url with blocks', async () => {
    await start();
    const responseUrl = fake.responseUrl();
    const res = await postSignedCommand(
      url,
      signingSecret,
      slashCommand({ response_url: responseUrl, text: 'funding solar-kiosk' }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');

    const response = await fake.waitFor(() => fake.responses[0], 'the respond() call');
    expect(responseUrl.endsWith(response.id)).toBe(true);
    expect(response.body.response_type).toBe('in_channel');
    expect(response.body.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'Funding of solar-kiosk', emoji: true } },
      { type: 'section', text: { type: 'plain_text', text: 'All good', emoji: true } },
    ]);
    expect(response.body.text).toBe('Funding of solar-kiosk — All good');

    expect(core.invocations).toHaveLength(1);
    expect(core.invocations[0]).toMatchObject({
      name: 'funding',
      options: { project: 'solar-kiosk' },
      context: {
        user: { id: 'U0PLAIN', displayName: 'plain' },
        channel: { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' },
        canAdminister: false,
        platformLocale: 'de-DE',
      },
    });
  });

  it('maps /fundbot <subcommand> to the canonical command, and /fundbot alone to help', async () => {
    await start();
    await answerToSignedCommand(fake, url, signingSecret, { text: 'status solar-kiosk' });
    expect(core.invocations[0]).toMatchObject({ name: 'status', options: { project: 'solar-kiosk' } });

    await answerToSignedCommand(fake, url, signingSecret, { text: '' });
    expect(core.invocations[1]).toMatchObject({ name: 'help', options: {} });
  });

  it('answers an unknown subcommand privately with the list of subcommands, running nothing', async () => {
    await start();
    const response = await answerToSignedCommand(fake, url, signingSecret, { text: 'teleport solar-kiosk' });
    expect(response.body.response_type).toBe('ephemeral');
    const shown = JSON.stringify(response.body.blocks);
    expect(shown).toContain('teleport');
    for (const name of ['funding', 'rewards', 'subscribe', 'subscriptions', 'status', 'help'])
      expect(shown).toContain(name);
    expect(shown).toContain('/fundbot help');
    expect(core.invocations).toHaveLength(0);
  });

  it('tells a user typing a command of an old manifest (/funding) what to type instead', async () => {
    await start();
    const response = await answerToSignedCommand(fake, url, signingSecret, {
      command: '/funding',
      text: 'solar-kiosk',
    });
    expect(response.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(response.body.blocks)).toContain('/fundbot funding [project]');
    expect(core.invocations).toHaveLength(0);
  });

  it('rejects a request with a bad signature and runs nothing', async () => {
    await start();
    const res = await postCommand({ signature: `v0=${'0'.repeat(64)}` });
    expect(res.status).toBe(401);
    const signedWithOtherSecret = await postCommand({}, 'not-the-signing-secret');
    expect(signedWithOtherSecret.status).toBe(401);
    expect(core.invocations).toHaveLength(0);
    expect(fake.responses).toHaveLength(0);
  });

  it('rejects a correctly signed request whose timestamp is older than five minutes (replay)', async () => {
    await start();
    const res = await postCommand({ timestampSeconds: Math.floor(Date.now() / 1000) - 10 * 60 });
    expect(res.status).toBe(401);
    expect(core.invocations).toHaveLength(0);
  });

  it('acks before a slow core finishes (Slack allows 3 seconds), then responds', async () => {
    const gate = deferred<NeutralMessage>();
    const coreStarted = deferred();
    await start(() => {
      coreStarted.resolve();
      return gate.promise;
    });
    const res = await postCommand();
    // The HTTP response (the ack) is complete while the core is still waiting on the gate.
    expect(res.status).toBe(200);
    await coreStarted.promise;
    expect(fake.responses).toHaveLength(0);

    gate.resolve({ text: 'late but fine' });
    const response = await fake.waitFor(() => fake.responses[0], 'the respond() call');
    expect(response.body.blocks).toEqual([
      { type: 'section', text: { type: 'plain_text', text: 'late but fine', emoji: true } },
    ]);
  });

  it('answers invalid arguments privately with the usage and does not run the command', async () => {
    await start();
    const missing = await answerToSignedCommand(fake, url, signingSecret, { text: 'reward' });
    expect(missing.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(missing.body.blocks)).toContain('/fundbot reward <id> [project]');

    const notANumber = await answerToSignedCommand(fake, url, signingSecret, { text: 'reward abc' });
    expect(notANumber.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(notANumber.body.blocks)).toContain('abc');
    expect(core.invocations).toHaveLength(0);
  });

  it('sends private answers of the core as ephemeral', async () => {
    await start(() => ({ text: 'Only you can see this', private: true, tone: 'error' }));
    const response = await answerToSignedCommand(fake, url, signingSecret, {});
    expect(response.body.response_type).toBe('ephemeral');
  });

  it('answers privately when the core throws, without leaking the error', async () => {
    await start(() => {
      throw new Error('database password=hunter2 exploded');
    });
    const response = await answerToSignedCommand(fake, url, signingSecret, {});
    expect(response.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(response.body)).not.toContain('hunter2');
  });

  describe('canAdminister', () => {
    async function canAdminister(userId: string): Promise<boolean | undefined> {
      await answerToSignedCommand(fake, url, signingSecret, { user_id: userId });
      return core.invocations.at(-1)?.context.canAdminister;
    }

    it('is false for a user who is neither workspace admin nor listed, true for admins, owners and listed users', async () => {
      await start(undefined, ['U0LISTED']);
      expect(await canAdminister('U0PLAIN')).toBe(false);
      expect(await canAdminister('U0ADMIN')).toBe(true);
      expect(await canAdminister('U0OWNER')).toBe(true);
      expect(await canAdminister('U0LISTED')).toBe(true);
    });

    it('is false for an admin of another workspace (Slack Connect) and when users.info fails', async () => {
      await start();
      expect(await canAdminister('U0FOREIGN')).toBe(false);
      fake.fail('users.info', { error: 'missing_scope' });
      expect(await canAdminister('U0ADMIN')).toBe(false);
    });

    it('caches users.info briefly: a burst of commands asks Slack once', async () => {
      await start();
      await canAdminister('U0ADMIN');
      await canAdminister('U0ADMIN');
      await canAdminister('U0ADMIN');
      expect(fake.callsTo('users.info')).toHaveLength(1);
      expect(fake.callsTo('users.info')[0]?.args).toMatchObject({ user: 'U0ADMIN', include_locale: 'true' });
    });
  });

  it('fails start() with a helpful error when Slack rejects the bot token', async () => {
    core = recordingCore();
    adapter = httpModeAdapter({
      botToken: 'xoxb-wrong',
      signingSecret,
      core,
      apiUrl: fake.apiUrl,
    });
    const error = await adapter.start().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('Slack auth.test failed');
    expect(error?.message).not.toContain('xoxb-wrong');
  });
});
