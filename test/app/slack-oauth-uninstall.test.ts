/**
 * Issue 24, hardening, through startBot in Slack OAuth mode against the fake Web API: uninstalling removes
 * all of the workspace's data (and only its), and a command from an uninstalled or unknown workspace is
 * answered "fundbot is not installed in this workspace" instead of silence.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ChannelRef,
  createChannelAccessStates,
  createDailyThreadSettings,
  createSettingsStore,
  createSubscriptionStore,
} from '../../src/core/index.js';
import { systemClock } from '../../src/lib/clock.js';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { demoLinkCaption } from '../../src/simulator/index.js';
import { answerToSignedCommand, postSignedJson } from '../slack/helpers.js';
import { installWorkspace } from '../slack/oauth-browser.js';
import { waitUntil } from '../support/wait-until.js';
import { startSlackOAuthBot } from './helpers/in-process-bot.js';

const signingSecret = 'uninstall-signing-secret';
const gone = { teamId: 'T0GONE', name: 'Leaving Team' };
const stays = { teamId: 'T0STAYS', name: 'Staying Team' };

/** Every setting a workspace can leave behind, written through the core's own stores (their real key layout). */
async function writeWorkspaceData(store: KeyValueStore, team: string): Promise<void> {
  const channel: ChannelRef = { platform: 'slack', workspaceId: team, channelId: 'C0MAIN' };
  await createSubscriptionStore(store, { clock: systemClock }).subscribe(
    channel,
    demoLinkCaption,
    ['supporters'],
    'U0ADMIN',
  );
  await createSettingsStore(store).setLocale(channel, 'workspace', 'de');
  await createSettingsStore(store).setLocale(channel, 'channel', 'de');
  await createDailyThreadSettings(store).set(channel, true);
  await createChannelAccessStates(store).markCannotPost(channel, { reason: 'not-member' }, 1);
  await store.set(`settings/pacing/slack:${team}:C0MAIN`, { any: 'pacing' });
  await store.set(`deliveries/pacing/recent/slack:${team}:C0MAIN/supporter`, { at: 1 });
}

const keysOf = async (store: KeyValueStore, team: string) => {
  const probes = [
    `settings/locale/workspace/slack:${team}`,
    `settings/locale/channel/slack:${team}:C0MAIN`,
    `settings/daily-thread/slack:${team}:C0MAIN`,
    `settings/access/slack:${team}:C0MAIN`,
    `settings/pacing/slack:${team}:C0MAIN`,
    `deliveries/pacing/recent/slack:${team}:C0MAIN/supporter`,
    `slack/installations/team/${team}`,
  ];
  const present = await Promise.all(probes.map(async (k) => ((await store.get(k, z.unknown())) ? k : '')));
  return present.filter(Boolean);
};

describe('Slack OAuth uninstall and unknown workspaces, through startBot', () => {
  it('app_uninstalled removes all of that workspace data and only its; its commands are answered "not installed"', async () => {
    const { fake, storeUrl, base } = await startSlackOAuthBot({
      storePrefix: 'fundbot-uninstall-',
      signingSecret,
      stateSecret: 'uninstall-state-secret-0123456789abcdef',
      source: 'test',
    });
    for (const team of [gone, stays]) {
      expect((await installWorkspace(base, fake, team)).status).toBe(200);
    }

    const side = await openStore(storeUrl);
    try {
      await writeWorkspaceData(side, gone.teamId);
      await writeWorkspaceData(side, stays.teamId);
      expect(await keysOf(side, gone.teamId)).toHaveLength(7);

      const uninstalled = await postSignedJson(`${base}/slack/events`, signingSecret, {
        token: 'legacy',
        team_id: gone.teamId,
        api_app_id: 'A0FUNDBOT',
        type: 'event_callback',
        event_id: 'Ev0GONE',
        event_time: Math.floor(Date.now() / 1000),
        event: { type: 'app_uninstalled' },
      });
      expect(uninstalled.status).toBe(200);
      await waitUntil(
        'the workspace data to go',
        async () => (await keysOf(side, gone.teamId)).length === 0,
        // A deadline, not a pace: under load the uninstall's scans took over 2.5 s.
        { timeoutMs: 10_000 },
      );
      expect(await keysOf(side, gone.teamId)).toEqual([]);
      expect(await keysOf(side, stays.teamId)).toHaveLength(7);
      const subscriptions = createSubscriptionStore(side, { clock: systemClock });
      expect(await subscriptions.forProject(demoLinkCaption)).toEqual([
        expect.objectContaining({ channel: expect.objectContaining({ workspaceId: stays.teamId }) }),
      ]);
    } finally {
      await side.close();
    }

    // A command from the uninstalled workspace, and one from a workspace that never installed: answered.
    for (const team of [gone.teamId, 'T0NEVER']) {
      const answer = await answerToSignedCommand(fake, `${base}/slack/events`, signingSecret, {
        team_id: team,
        text: 'funding',
      });
      expect(JSON.stringify(answer.body)).toContain('fundbot is not installed in this workspace');
    }
  }, 40_000);
});
