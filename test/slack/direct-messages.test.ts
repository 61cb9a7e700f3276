import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSlackPostingClient } from '../../src/adapters/slack/create-slack-poster.js';
import { createSlackDirectMessenger } from '../../src/adapters/slack/slack-direct-messages.js';
import { DirectMessageRefusedError } from '../../src/delivery/index.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';

let fake: FakeSlack;
const team = { platform: 'slack', workspaceId: 'T0FAKE' } as const;

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
});

describe('Slack direct messages (the reward watch)', () => {
  test('conversations.open users=<id>, then chat.postMessage to the D… channel it returned, text inert', async () => {
    const messenger = createSlackDirectMessenger(
      createSlackPostingClient('xoxb-test', { slackApiUrl: fake.apiUrl }),
    );
    await messenger.sendDirect(team, 'U0WATCH', {
      title: 'Back in stock: kit <!channel>',
      text: '@everyone',
    });
    expect(fake.callsTo('conversations.open').map((c) => c.args['users'])).toEqual(['U0WATCH']);
    const [message] = fake.directMessagesTo('U0WATCH');
    expect(message?.text).toContain('Back in stock');
    expect(JSON.stringify(message)).not.toContain('<!channel>');
  });

  test('a user Slack will not open a DM with (user_disabled) is a refusal, not a passing failure', async () => {
    fake.setUser({ id: 'U0GONE', team_id: 'T0FAKE', name: 'gone', deleted: true });
    const messenger = createSlackDirectMessenger(
      createSlackPostingClient('xoxb-test', { slackApiUrl: fake.apiUrl }),
    );
    const refused = await messenger.sendDirect(team, 'U0GONE', { text: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DirectMessageRefusedError);
    expect((refused as DirectMessageRefusedError).reason).toBe('slack user_disabled');
    expect(fake.directMessagesTo('U0GONE')).toEqual([]);
  });
});
