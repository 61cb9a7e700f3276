import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from '../../src/lib/store.js';
import { answerToSignedCommand } from '../slack/helpers.js';
import { beginInstall, finishInstall } from '../slack/oauth-browser.js';
import { startSlackOAuthBot } from './helpers/in-process-bot.js';

const signingSecret = 'e2e-oauth-signing-secret';
const workspace = { teamId: 'T0AGENCY', name: 'Agency Workspace' };

describe('Slack for many workspaces (slack.clientId) through startBot', () => {
  it('installs through /slack/install and the fake oauth.v2.access, stores the installation encrypted, and answers that team with its own token', async () => {
    const { fake, storeUrl, config, base } = await startSlackOAuthBot({
      storePrefix: 'fundbot-oauth-',
      signingSecret,
      stateSecret: 'e2e-state-secret-0123456789abcdef',
      source: 'e2e',
    });
    expect(config.slack).toMatchObject({ enabled: true, mode: 'oauth' });

    // The admin's browser: /slack/install → Slack's consent screen (state + cookie) → the redirect with a code.
    const begin = await beginInstall(base);
    expect(begin.response.status).toBe(302);
    const redirect = await finishInstall(base, fake.issueCode(workspace), begin.state, begin.cookie);
    expect(redirect.status).toBe(200);
    expect(fake.calls.filter((c) => c.method === 'oauth.v2.access')).toHaveLength(1);
    const token = fake.tokenOf(workspace.teamId) ?? 'missing';

    // In fundbot's store, sealed: a copied database shows neither the token nor the workspace's name.
    const store = await openStore(storeUrl);
    try {
      const stored = await store.get(`slack/installations/team/${workspace.teamId}`, z.unknown());
      expect(stored).toMatchObject({ v: 1 });
      expect(JSON.stringify(stored)).not.toContain(token);
      expect(JSON.stringify(stored)).not.toContain('xoxb-');
      expect(JSON.stringify(stored)).not.toContain(workspace.name);
    } finally {
      await store.close();
    }

    // A command from that workspace: acknowledged, answered through response_url, authorized with its token.
    const answer = await answerToSignedCommand(fake, `${base}/slack/events`, signingSecret, {
      team_id: workspace.teamId,
      text: 'funding',
    });
    expect(JSON.stringify(answer.body)).toContain('Solar Kiosk');
    const lookup = fake.calls.find((c) => c.method === 'users.info');
    expect(lookup?.token).toBe(token);
    // No single-workspace token was configured, and none was used.
    expect(fake.calls.every((c) => c.token === undefined || c.token === token)).toBe(true);
  }, 40_000);
});
