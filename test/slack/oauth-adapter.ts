import { randomBytes } from 'node:crypto';
import {
  createSlackAdapter,
  type SlackAdapter,
  type SlackOAuthModeOptions,
} from '../../src/adapters/slack/index.js';
import type { FakeSlackOAuth } from '../fakes/slack/fake-slack-oauth.js';
import { recordingLogger } from './helpers.js';

/**
 * The adapter in OAuth mode (many workspaces, the real Bolt install flow) against the fake's OAuth and Web API,
 * started on a free port of 127.0.0.1: no Web API retries, a fresh encryption key, a 1 s drain. `options` names
 * the store, the subscriptions, the core and the secrets, and may replace the rest.
 */
export async function startOAuthAdapter(
  fake: FakeSlackOAuth,
  options: Pick<SlackOAuthModeOptions, 'store' | 'subscriptions' | 'core' | 'signingSecret' | 'stateSecret'> &
    Partial<SlackOAuthModeOptions>,
): Promise<{ readonly adapter: SlackAdapter; readonly base: string }> {
  const adapter = createSlackAdapter({
    mode: 'oauth',
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    encryptionKey: randomBytes(32),
    logger: recordingLogger(),
    host: '127.0.0.1',
    port: 0,
    slackApiUrl: fake.apiUrl,
    retryPolicy: { retries: 0 },
    drainTimeoutMs: 1_000,
    ...options,
  });
  await adapter.start();
  return { adapter, base: new URL(adapter.url ?? '').origin };
}
