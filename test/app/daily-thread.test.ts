/**
 * The daily thread end to end: the configured bot polls the simulator, an admin turns
 * the thread on with `/fundbot thread on` over Socket Mode, and new supporters on the
 * platform reach the fake Slack as replies under one parent message of the day.
 */
import { describe, expect, it } from 'vitest';
import { demoLinkCaption } from '../../src/simulator/index.js';
import { hostileTexts } from '../support/hostile-text.js';
import { adminCommand, startSlackSocketBot } from './helpers/slack-socket-bot.js';

describe('the daily thread, end to end on the simulator', () => {
  it('/fundbot thread on: supporters from the platform become replies under one parent of the day, names inert', async () => {
    const { sim, fake } = await startSlackSocketBot();
    const run = (text: string, answer: string) => adminCommand(fake, text, answer);
    await run(`subscribe ${demoLinkCaption} supporters`, 'Solar');
    const on = await run('thread on', 'Daily thread on');
    expect(on.body['response_type']).not.toBe('in_channel');

    // The parent names the latest supporter too: replies are the posts with a thread_ts.
    const replies = () => fake.callsTo('chat.postMessage').filter((c) => c.args['thread_ts'] !== undefined);
    sim.project(demoLinkCaption).addSupporter({ displayName: 'Ada Thread' });
    const first = await fake.waitFor(
      () => replies().find((c) => JSON.stringify(c.args).includes('Ada Thread')),
      'the first reply',
      15_000,
    );
    sim.project(demoLinkCaption).addSupporter({ displayName: hostileTexts.slackChannel });
    const second = await fake.waitFor(
      () => replies().find((c) => JSON.stringify(c.args).includes('&lt;!channel&gt;')),
      'the hostile reply',
      15_000,
    );
    const parents = fake.callsTo('chat.postMessage').filter((c) => c.args['thread_ts'] === undefined);
    expect(parents).toHaveLength(1);
    expect(String(parents[0]?.args['text'])).toContain('Supporters on');
    const parentTs = (fake.messages.get('C0CHAN') ?? []).find((m) => m.thread_ts === undefined)?.ts;
    expect(first.args['thread_ts']).toBe(parentTs);
    expect(second.args['thread_ts']).toBe(parentTs);
    expect(String(second.args['text'])).not.toContain('<!channel>');
    expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);
  }, 40_000);
});
