/**
 * Journey: `npm start` (src/main.ts under tsx) on Slack in Socket Mode, against the local Slack fake and the
 * platform simulator, driven only from outside.
 */
import { tsxEntry } from './harness/bot-process.js';
import { defineChatJourney } from './harness/chat-journey.js';
import { startSlackDriver } from './harness/slack-driver.js';

defineChatJourney('journey: npm start on Slack in Socket Mode', {
  name: 'slack-socket',
  platform: 'slack',
  transport: 'socket',
  entry: () => tsxEntry,
  startDriver: () => startSlackDriver('socket'),
});
