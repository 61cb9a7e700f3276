import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/adapters/discord/describe-error.js';
import { registerConfiguredSecrets } from '../../src/app/register-configured-secrets.js';
import { Secret } from '../../src/config/index.js';
import { scrubSecrets } from '../../src/lib/scrub-secrets.js';

describe('every configured chat secret is known to the one redactor from the start', () => {
  it('hides a shapeless signing secret, a piece of it, and a token echoed without its prefix', () => {
    const signing = '8f14e45fceea167a5a36dedd4bea2543';
    const bot = 'xoxb-1-registered-at-start-bot-token';
    const known = registerConfiguredSecrets({
      discord: { enabled: false },
      slack: {
        enabled: true,
        mode: 'http',
        apiUrl: undefined,
        port: 3000,
        botToken: new Secret('SLACK_BOT_TOKEN', bot),
        signingSecret: new Secret('SLACK_SIGNING_SECRET', signing),
        admins: [],
      },
    });
    expect(known).toEqual([bot, signing]);
    // No caller passes the secrets: the shared redactor knows them.
    const line = `bad signature with ${signing}; piece ${signing.slice(5, 25)}; echo 1-registered-at-start-bot-token`;
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toContain(signing.slice(5, 21));
    expect(scrubbed).not.toContain('registered-at-start');
  });
});

describe("the Discord adapter's error summaries use the one redactor", () => {
  it('hides a registered secret (here a piece of it echoed by a library) it was not handed', () => {
    registerConfiguredSecrets({
      slack: { enabled: false },
      discord: {
        enabled: true,
        mode: 'gateway',
        token: new Secret('DISCORD_TOKEN', 'plain-discord-test-token-without-any-shape'),
        applicationId: undefined,
        apiUrl: undefined,
      },
    });
    const error = Object.assign(new Error('401: token discord-test-token-without was refused'), {
      url: 'https://discord.test/api/webhooks/123/abcdefTOKEN?wait=true key svc_proj_AAAAAAAAAAAAAAAAAAAA',
    });
    const summary = describeError(error);
    expect(summary['message']).not.toContain('discord-test-token-without');
    expect(summary['url']).not.toContain('abcdefTOKEN');
    expect(summary['url']).not.toContain('AAAAAAAAAAAAAAAAAAAA');
  });
});
