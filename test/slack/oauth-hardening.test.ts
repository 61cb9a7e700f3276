/**
 * Issue 24, hardening of Slack OAuth mode, through the real Bolt HTTPReceiver and install flow against
 * the fake Web API: install states are single-use, and concurrent copies of one signed command run once
 * (the replay guard is one set-if-absent in the store, here a real SQLite file).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SlackAdapter } from '../../src/adapters/slack/index.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { type KeyValueStore, memoryStore, openStore } from '../../src/lib/store.js';
import {
  type FakeSlackOAuth,
  type FakeWorkspace,
  startFakeSlackOAuth,
} from '../fakes/slack/fake-slack-oauth.js';
import { ManualClock } from '../support/manual-clock.js';
import { waitUntil } from '../support/wait-until.js';
import { postSignedCommand, type RecordingCore, recordingCore, slashCommand } from './helpers.js';
import { startOAuthAdapter } from './oauth-adapter.js';
import { beginInstall, finishInstall } from './oauth-browser.js';

const signingSecret = 'oauth-hardening-signing-secret';
const teamOne: FakeWorkspace = { teamId: 'T0HARD1', name: 'Hard One' };
const teamTwo: FakeWorkspace = { teamId: 'T0HARD2', name: 'Hard Two' };

let dir: string;
let fake: FakeSlackOAuth;
let store: KeyValueStore;
let adapter: SlackAdapter;
let core: RecordingCore;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fundbot-oauth-hardening-'));
  fake = await startFakeSlackOAuth();
  store = await openStore(`sqlite://${join(dir, 'state.sqlite')}`);
  core = recordingCore();
  ({ adapter, base } = await startOAuthAdapter(fake, {
    stateSecret: 'a-state-secret-of-at-least-32-characters',
    signingSecret,
    store,
    subscriptions: createSubscriptionStore(memoryStore(), { clock: new ManualClock() }),
    core,
  }));
});
afterAll(async () => {
  await adapter?.stop();
  await fake?.close();
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

const installed = async (teamId: string) =>
  (await store.get(`slack/installations/team/${teamId}`, z.unknown())) !== undefined;

describe('Slack OAuth install states', () => {
  it('are single-use: the same state and cookie again install nothing', async () => {
    const { state, cookie } = await beginInstall(base);
    expect((await finishInstall(base, fake.issueCode(teamOne), state, cookie)).status).toBe(200);
    expect(await installed(teamOne.teamId)).toBe(true);

    const exchangesBefore = fake.calls.filter((c) => c.method === 'oauth.v2.access').length;
    const replayed = await finishInstall(base, fake.issueCode(teamTwo), state, cookie);
    expect(replayed.status).not.toBe(200);
    expect(fake.calls.filter((c) => c.method === 'oauth.v2.access')).toHaveLength(exchangesBefore);
    expect(await installed(teamTwo.teamId)).toBe(false);
  });

  it('raced: of 4 concurrent redirects with one state, one installs', async () => {
    const { state, cookie } = await beginInstall(base);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => finishInstall(base, fake.issueCode(teamTwo), state, cookie)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });

  it('a forged state is refused', async () => {
    const { state, cookie } = await beginInstall(base);
    const [body] = state.split('.');
    const forged = `${body}.${'A'.repeat(43)}`;
    const response = await finishInstall(
      base,
      fake.issueCode(teamTwo),
      forged,
      cookie.replace(state, forged),
    );
    expect(response.status).not.toBe(200);
  });
});

describe('Slack OAuth replays', () => {
  it('5 concurrent copies of one signed command run once; a new signature runs', async () => {
    const before = core.invocations.length;
    const fields = slashCommand({ response_url: fake.responseUrl(), team_id: teamOne.teamId });
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        postSignedCommand(`${base}/slack/events`, signingSecret, fields, { timestampSeconds }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
    // The command runs after its acknowledgement, on a loaded machine later than a fixed 200 ms: wait for the run,
    // then give a second one (a refused copy run anyway) as long as before to show up. An absence: time alone shows it.
    await waitUntil('the accepted copy to run', () => core.invocations.length > before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(core.invocations.length - before).toBe(1);
  });
});
