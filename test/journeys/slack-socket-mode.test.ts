/**
 * Journey: `npm start` (src/main.ts under tsx) on Slack in Socket Mode, against the local Slack fake and the
 * platform simulator, driven only from outside.
 */
import { expect } from 'vitest';
import { tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { journeyStep } from './harness/known-defects.js';
import { startSlackDriver } from './harness/slack-driver.js';

defineChatJourney('journey: npm start on Slack in Socket Mode', {
  name: 'slack-socket',
  platform: 'slack',
  transport: 'socket',
  entry: () => tsxEntry,
  startDriver: () => startSlackDriver('socket'),
  platformSteps: (state) => {
    journeyStep('/fundbot alone answers the help, with the subcommands', undefined, async () => {
      const fake = state.driver.fake;
      const responseUrl = fake.responseUrl();
      const id = responseUrl.split('/').at(-1);
      fake.sendSlashCommand({
        command: '/fundbot',
        text: '',
        response_url: responseUrl,
        team_id: 'T0FAKE',
        channel_id: state.driver.channel,
        user_id: 'U0MEMBER',
        user_name: 'member',
      });
      const help = await fake.waitFor(() => fake.responses.find((r) => r.id === id), 'the help', 10_000);
      expect(JSON.stringify(help.body)).toContain('/fundbot funding');
    });
  },
});
