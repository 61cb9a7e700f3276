/**
 * Journey: `npm start` (src/main.ts under tsx) on Slack in HTTP mode (signed slash-command requests to its receiver), against the local fakes and the platform simulator,
 * driven only from outside.
 */
import { tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { startSlackDriver } from './harness/slack-driver.js';

defineChatJourney('journey: npm start on Slack over HTTP', {
  name: 'slack-http',
  platform: 'slack',
  transport: 'http',
  entry: () => tsxEntry,
  startDriver: () => startSlackDriver('http'),
});
