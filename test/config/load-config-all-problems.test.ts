import { describe, expect, it } from 'vitest';
import { formatConfigProblems } from '../../src/config/config-problem.js';
import { SLACK_BOT_TOKEN, SOLAR_KEY, validEnv, validFile } from './config-builders.js';
import { expectNoSecret, load, problemsOf } from './helpers/load-results.js';

describe('all problems at once', () => {
  it('lists schema, secret and environment problems of every section together', () => {
    const result = load(
      {
        api: { baseUrl: 'https://api.crowdfunding.test', timeoutMs: 5 },
        projects: [
          { linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
          { linkCaption: 'river cleanup', apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
          { linkCaption: 'third', apiKeyEnv: 'THIRD_KEY', apiKey: SOLAR_KEY },
        ],
        discord: { enabled: true },
        slack: { enabled: true, mode: 'socket' },
        digest: { time: '25:00', timeZone: 'Mars/Olympus' },
        engine: { burstThreshold: 0 },
        http: { prot: 1 },
      },
      { SLACK_BOT_TOKEN, SOLAR_KIOSK_API_KEY: 'svc_user_wrongKind123456' },
    );
    const problems = problemsOf(result);
    expect(problems.map((p) => p.path)).toEqual([
      'projects[2].apiKey',
      'api.timeoutMs',
      'projects[1].linkCaption',
      'digest.time',
      'digest.timeZone',
      'engine.burstThreshold',
      'http.prot',
      'projects[0].apiKeyEnv',
      'discord.enabled',
      'env SLACK_APP_TOKEN',
    ]);
    expectNoSecret(formatConfigProblems(problems));
  });

  it('formats the list as a numbered report naming the file', () => {
    const result = load(validFile(), validEnv({ SOLAR_KIOSK_API_KEY: undefined, DISCORD_TOKEN: undefined }));
    expect(formatConfigProblems(problemsOf(result), './fundbot.config.json')).toBe(
      [
        'fundbot cannot start: 2 problems in the configuration (./fundbot.config.json)',
        '  1. projects[0].apiKeyEnv: SOLAR_KIOSK_API_KEY is not set: export it with the Project API key of "solar-kiosk" from project administration → API keys (scopes: project:read, fundings:read, incentives:read, blog:read, wall:read)',
        '  2. discord.enabled: Discord is enabled but DISCORD_TOKEN is not set: export DISCORD_TOKEN with the bot token (Discord Developer Portal → your application → Bot → Reset Token), or set discord.enabled to false',
        'See docs/configuration.md for every field.',
      ].join('\n'),
    );
  });
});
