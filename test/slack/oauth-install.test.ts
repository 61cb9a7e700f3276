import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SlackAdapter } from '../../src/adapters/slack/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { type FakeSlackOAuth, startFakeSlackOAuth } from '../fakes/slack/fake-slack-oauth.js';
import { ManualClock } from '../support/manual-clock.js';
import { waitUntil } from '../support/wait-until.js';
import {
  answerToSignedCommand,
  postSignedJson,
  type RecordingCore,
  recordingCore,
  recordingLogger,
} from './helpers.js';
import { startOAuthAdapter } from './oauth-adapter.js';
import { beginInstall, finishInstall } from './oauth-browser.js';

const signingSecret = 'oauth-signing-secret';
const teamOne = { teamId: 'T0ONE', name: 'Team One', admins: ['U0BOSS'] };
const teamTwo = { teamId: 'T0TWO', name: 'Team Two' };

let fake: FakeSlackOAuth;
let store: KeyValueStore;
let adapter: SlackAdapter;
let core: RecordingCore;
const logger = recordingLogger();
const subscriptions = createSubscriptionStore(memoryStore(), { clock: new ManualClock() });
let base: string;

beforeAll(async () => {
  fake = await startFakeSlackOAuth();
  store = memoryStore();
  core = recordingCore();
  // Through the adapter entry point: mode 'oauth' switches from the single bot token to the install flow.
  ({ adapter, base } = await startOAuthAdapter(fake, {
    stateSecret: 'state-secret-for-tests',
    signingSecret,
    store,
    subscriptions,
    core,
    logger,
  }));
});
afterAll(async () => {
  await adapter?.stop();
  await fake?.close();
});

/** Starts an install like an admin's browser, and checks Slack's consent URL and Bolt's state cookie. */
async function beginCheckedInstall(): Promise<{ state: string; cookie: string }> {
  const { response, consent, state, cookie } = await beginInstall(base);
  expect(response.status).toBe(302);
  expect(consent.searchParams.get('client_id')).toBe(fake.clientId);
  expect(consent.searchParams.get('scope')).toBe(
    'commands,chat:write,files:write,users:read,channels:history,groups:history,channels:read,groups:read,im:write',
  );
  expect(cookie).toMatch(/^slack-app-oauth-state=/);
  return { state, cookie };
}

async function install(workspace: typeof teamOne | typeof teamTwo): Promise<void> {
  const { state, cookie } = await beginCheckedInstall();
  const response = await finishInstall(base, fake.issueCode(workspace), state, cookie);
  expect(response.status).toBe(200);
}

const postEvent = (event: object) => postSignedJson(`${base}/slack/events`, signingSecret, event);

const installationKey = (teamId: string) => `slack/installations/team/${teamId}`;

describe('Slack OAuth install flow', () => {
  it('exchanges the code through oauth.v2.access and stores the installation encrypted', async () => {
    await install(teamOne);
    const exchange = fake.calls.filter((c) => c.method === 'oauth.v2.access');
    expect(exchange).toHaveLength(1);
    expect(exchange[0]?.args).toMatchObject({ client_id: fake.clientId, client_secret: fake.clientSecret });
    const token = fake.tokenOf(teamOne.teamId) ?? 'missing';
    const stored = await store.get(installationKey(teamOne.teamId), z.unknown());
    expect(stored).toMatchObject({ v: 1 });
    const raw = JSON.stringify(stored);
    expect(raw).not.toContain(token);
    expect(raw).not.toContain('xoxb-');
    expect(raw).not.toContain(teamOne.name);
  });

  it('refuses a redirect without the state cookie of the browser that started the install', async () => {
    const before = fake.calls.length;
    const { state } = await beginCheckedInstall();
    const response = await finishInstall(base, fake.issueCode(teamTwo), state, undefined);
    expect(response.status).not.toBe(200);
    expect(fake.calls.slice(before).some((c) => c.method === 'oauth.v2.access')).toBe(false);
    expect(await store.get(installationKey(teamTwo.teamId), z.unknown())).toBeUndefined();
  });

  it('refuses a forged state even when cookie and query agree', async () => {
    const before = fake.calls.length;
    const forged = 'forged-state';
    const response = await finishInstall(
      base,
      fake.issueCode(teamTwo),
      forged,
      `slack-app-oauth-state=${forged}`,
    );
    expect(response.status).not.toBe(200);
    expect(fake.calls.slice(before).some((c) => c.method === 'oauth.v2.access')).toBe(false);
  });

  it('authorizes each command with the bot token of the workspace it came from', async () => {
    await install(teamTwo);
    await answerToSignedCommand(fake, `${base}/slack/events`, signingSecret, {
      team_id: teamTwo.teamId,
      user_id: 'U0PLAIN',
    });
    const lookup = fake.calls.find((c) => c.method === 'users.info' && c.args.user === 'U0PLAIN');
    expect(lookup?.token).toBe(fake.tokenOf(teamTwo.teamId));
    expect(core.invocations.at(-1)?.context.channel).toEqual({
      platform: 'slack',
      workspaceId: teamTwo.teamId,
      channelId: 'C0CHAN',
    });
  });

  it('takes admin rights from the workspace the command came from', async () => {
    await answerToSignedCommand(fake, `${base}/slack/events`, signingSecret, {
      team_id: teamOne.teamId,
      user_id: 'U0BOSS',
    });
    expect(core.invocations.at(-1)?.context.canAdminister).toBe(true);
  });

  it('posts notices with each workspace own token, and refuses a workspace that never installed', async () => {
    const one: ChannelRef = { platform: 'slack', workspaceId: teamOne.teamId, channelId: 'C0ONE' };
    const two: ChannelRef = { platform: 'slack', workspaceId: teamTwo.teamId, channelId: 'C0TWO' };
    await adapter.poster.post(one, { text: 'hello one' }, 'event-1');
    await adapter.poster.post(two, { text: 'hello two' }, 'event-2');
    const posts = fake.calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts.map((p) => [p.args.channel, p.token])).toEqual([
      ['C0ONE', fake.tokenOf(teamOne.teamId)],
      ['C0TWO', fake.tokenOf(teamTwo.teamId)],
    ]);
    await expect(
      adapter.poster.post({ ...one, workspaceId: 'T0NEVER' }, { text: 'x' }, 'event-3'),
    ).rejects.toMatchObject({ name: 'ChannelUnavailableError', reason: 'token-revoked' });
  });

  it("sends the reward watch's direct message with the member's workspace token, and refuses one never installed", async () => {
    const one = { platform: 'slack', workspaceId: teamOne.teamId } as const;
    await adapter.directMessenger?.sendDirect(one, 'U0WATCHER', { text: 'Back in stock: kit' });
    const opened = fake.calls.filter((c) => c.method === 'conversations.open');
    expect(opened.map((c) => [c.args.users, c.token])).toEqual([['U0WATCHER', fake.tokenOf(teamOne.teamId)]]);
    const dm = fake.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === 'DU0WATCHER');
    expect(dm.map((c) => c.token)).toEqual([fake.tokenOf(teamOne.teamId)]);
    await expect(
      adapter.directMessenger?.sendDirect({ ...one, workspaceId: 'T0NEVER' }, 'U0WATCHER', { text: 'x' }),
    ).rejects.toMatchObject({ name: 'DirectMessageRefusedError' });
  });

  it('forgets the tokens and the subscriptions of a workspace that uninstalls, and only of it', async () => {
    const one: ChannelRef = { platform: 'slack', workspaceId: teamOne.teamId, channelId: 'C0ONE' };
    const two: ChannelRef = { platform: 'slack', workspaceId: teamTwo.teamId, channelId: 'C0TWO' };
    await subscriptions.subscribe(one, 'solar-kiosk', ['wall'], 'U0BOSS');
    await subscriptions.subscribe(two, 'solar-kiosk', ['wall'], 'U0OTHER');
    const response = await postEvent({
      token: 'legacy',
      team_id: teamOne.teamId,
      api_app_id: 'A0FUNDBOT',
      type: 'event_callback',
      event_id: 'Ev0UNINSTALL',
      event_time: Math.floor(Date.now() / 1000),
      event: { type: 'app_uninstalled', event_ts: '1700000000.000100' },
    });
    expect(response.status).toBe(200);
    await waitUntil(
      'the installation to be deleted',
      async () => (await store.get(installationKey(teamOne.teamId), z.unknown())) === undefined,
      { timeoutMs: 5_000, everyMs: 10 },
    );
    await waitUntil(
      'the subscriptions to go',
      async () => (await subscriptions.forChannel(one)).length === 0,
      { timeoutMs: 5_000, everyMs: 10 },
    );
    expect(await subscriptions.forChannel(two)).toHaveLength(1);
    expect(await store.get(installationKey(teamTwo.teamId), z.unknown())).toBeDefined();
    await expect(adapter.poster.post(one, { text: 'x' }, 'event-4')).rejects.toMatchObject({
      name: 'ChannelUnavailableError',
    });
  });

  it('forgets a workspace whose bot token was revoked', async () => {
    const response = await postEvent({
      token: 'legacy',
      team_id: teamTwo.teamId,
      api_app_id: 'A0FUNDBOT',
      type: 'event_callback',
      event_id: 'Ev0REVOKED',
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'tokens_revoked',
        tokens: { bot: [`U0BOT${teamTwo.teamId}`] },
        event_ts: '1700000001.000100',
      },
    });
    expect(response.status).toBe(200);
    await waitUntil(
      'the installation to be deleted',
      async () => (await store.get(installationKey(teamTwo.teamId), z.unknown())) === undefined,
      { timeoutMs: 5_000, everyMs: 10 },
    );
  });
});
