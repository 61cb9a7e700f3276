import { describe, expect, it } from 'vitest';
import { demoLinkCaption } from '../../src/simulator/index.js';
import { slashCommand } from '../slack/helpers.js';
import { adminCommand, startSlackSocketBot } from './helpers/slack-socket-bot.js';

describe('the configured bot, end to end', () => {
  it('checks the key, polls the platform, posts a new supporter in the subscribed Slack channel, answers /funding and reports health and metrics', async () => {
    // Polled quickly under generous limits: the budget logic is the benchmark's business.
    const { sim, fake, bot } = await startSlackSocketBot();

    // An admin subscribes the channel over Socket Mode.
    await adminCommand(fake, `subscribe ${demoLinkCaption}`);
    // The composition root connected Slack's channel access: /subscribe asked before storing.
    expect(fake.callsTo('conversations.info').map((c) => c.args.channel)).toEqual(['C0CHAN']);

    // A supporter arrives on the platform; the notice reaches the channel, carrying its event id.
    sim.project(demoLinkCaption).addSupporter({ displayName: 'Ada E2E' });
    const notice = await fake.waitFor(
      () => fake.callsTo('chat.postMessage').find((c) => JSON.stringify(c.args).includes('Ada E2E')),
      'the supporter notice',
      15_000,
    );
    expect(notice.args.channel).toBe('C0CHAN');
    expect(JSON.stringify(notice.args.metadata)).toContain('event_id');

    // /funding answers from the engine's cache.
    fake.sendSlashCommand(
      slashCommand({ response_url: fake.responseUrl(), command: '/fundbot', text: 'funding' }),
    );
    const funding = await fake.waitFor(
      () => fake.responses.find((r) => JSON.stringify(r.body).includes('25,000')),
      'the /funding answer',
      10_000,
    );
    expect(funding.body.response_type).toBe('in_channel');

    const healthz = await fetch(`${bot.opsUrl}/healthz`);
    expect(healthz.status).toBe(200);
    const metrics = await (await fetch(`${bot.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/fundbot_polls_total\{[^}]*feed="fundings"[^}]*result="ok"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_notices_total\{[^}]*kind="supporters"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_api_budget_remaining\{[^}]*window="day"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_command_duration_seconds_count\{[^}]*command="funding"/);
    expect(metrics).not.toContain('svc_proj_');
  }, 40_000);
});
