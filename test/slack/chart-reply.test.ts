/**
 * A command answer that carries a PNG (/chart, /digest) reaches a Slack channel
 * with its image: response_url cannot carry files, so it is uploaded as the digest is.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../src/adapters/slack/index.js';
import type { NeutralMessage } from '../../src/core/message.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { postSignedCommand, recordingCore, slashCommand } from './helpers.js';
import { httpModeAdapter } from './http-mode-adapter.js';

const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
const botToken = 'xoxb-1-test-bot-token';
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

describe('Slack command replies with a chart', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter | undefined;

  async function start(reply: NeutralMessage): Promise<string> {
    adapter = httpModeAdapter({
      botToken,
      signingSecret,
      core: recordingCore(() => reply),
      apiUrl: fake.apiUrl,
    });
    await adapter.start();
    return adapter.url ?? '';
  }

  beforeEach(async () => {
    fake = await startFakeSlack({
      botToken,
      users: [{ id: 'U0PLAIN', team_id: 'T0FAKE', name: 'plain', is_admin: false }],
    });
  });
  afterEach(async () => {
    await adapter?.stop();
    adapter = undefined;
    await fake.close();
  });

  it('uploads the PNG to the channel with the answer as its comment, instead of a file-less respond()', async () => {
    const url = await start({
      title: 'Solar Kiosk · Mar 10, 2026',
      text: 'Goal around Mar 12',
      image: {
        kind: 'attachment',
        filename: 'funding-solar-kiosk-2026-03-10.png',
        data: png,
        alt: 'Funding chart',
      },
    });
    await postSignedCommand(
      url,
      signingSecret,
      slashCommand({ response_url: fake.responseUrl(), text: 'chart' }),
    );
    const complete = await fake.waitFor(
      () => fake.callsTo('files.completeUploadExternal')[0],
      'the upload completion',
    );
    expect(complete.args).toMatchObject({ channel_id: 'C0CHAN' });
    expect(JSON.stringify(complete.args.blocks)).toContain('"text":"Solar Kiosk · Mar 10, 2026"');
    expect([...(fake.uploads[0]?.bytes ?? [])]).toEqual([...png]);
    expect(fake.responses).toHaveLength(0);
  });

  it('keeps answering privately through respond() when the answer is private', async () => {
    const url = await start({
      text: 'only you',
      private: true,
      image: { kind: 'attachment', filename: 'x.png', data: png, alt: 'x' },
    });
    await postSignedCommand(url, signingSecret, slashCommand({ response_url: fake.responseUrl() }));
    const response = await fake.waitFor(() => fake.responses[0], 'the respond() call');
    expect(response.body.response_type).toBe('ephemeral');
    expect(fake.uploads).toHaveLength(0);
  });
});
