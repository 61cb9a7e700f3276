import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, formatConfigProblems } from '../../src/config/config-problem.js';
import { loadConfig, parseConfig } from '../../src/config/load-config.js';
import {
  DISCORD_TOKEN,
  filesystem,
  SLACK_APP_TOKEN,
  SLACK_SIGNING_SECRET,
  validEnv,
  validFile,
} from './config-builders.js';
import { expectNoSecret, lines, load } from './helpers/load-results.js';

describe('a valid configuration', () => {
  it('applies defaults and resolves secrets from the environment', () => {
    const result = load(validFile());
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    const { config } = result;
    expect(config.source).toBe('./fundbot.config.json');
    expect(config.api).toEqual({
      baseUrl: 'https://api.crowdfunding.test',
      timeoutMs: 10_000,
      hedgeAfterMs: 750,
    });
    expect(config.store.url).toBe('sqlite://./data/fundbot.sqlite');
    expect(config.locale).toBe('en');
    expect(config.logLevel).toBe('info');
    expect(config.logFormat).toBe('json');
    expect(config.projects.map((p) => p.linkCaption)).toEqual(['solar-kiosk', 'river-cleanup']);
    expect(config.projects[0]?.milestones).toEqual([25, 50, 75, 100, 150, 200]);
    expect(config.projects[0]?.apiKey.kind).toBe('project');
    expect(config.digest).toMatchObject({ hour: 9, minute: 0, cron: '0 9 * * *', timeZone: 'Europe/Berlin' });
    expect(config.engine).toEqual({
      reservePct: 15,
      reserveFraction: 0.15,
      burstThreshold: 10,
      floodRatio: 0.5,
      publicReads: true,
      feedHealthHoldSec: 180,
    });
    expect(config.http).toEqual({ enabled: true, port: 9464, host: '127.0.0.1' });
    expect(config.discord.enabled && config.discord.token.reveal()).toBe(DISCORD_TOKEN);
    expect(config.slack.enabled && config.slack.mode === 'socket' && config.slack.appToken.reveal()).toBe(
      SLACK_APP_TOKEN,
    );
  });

  it('never shows a secret when the config is logged, serialised or inspected', () => {
    const result = load(validFile());
    if (!result.ok) throw new Error('invalid');
    expectNoSecret(JSON.stringify(result.config));
    expectNoSecret(inspect(result.config, { depth: 10 }));
    expectNoSecret(`${String(result.config.discord.enabled && result.config.discord.token)}`);
    expect(JSON.stringify(result.config)).toContain('Secret(DISCORD_TOKEN)');
  });

  it('sorts milestones and takes the HTTP-mode Slack settings', () => {
    const result = load(
      validFile({
        projects: [
          { linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY', milestones: [100, 50, 200] },
        ],
        slack: { enabled: true, mode: 'http', port: 3100 },
      }),
      validEnv({ SLACK_APP_TOKEN: undefined, SLACK_SIGNING_SECRET }),
    );
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    expect(result.config.projects[0]?.milestones).toEqual([50, 100, 200]);
    expect(result.config.slack).toMatchObject({ enabled: true, mode: 'http', port: 3100 });
  });

  it('lets FUNDBOT_STORE, FUNDBOT_API_BASE_URL, LOG_LEVEL, LOG_FORMAT and PORT override the file', () => {
    const result = load(
      validFile({ logFormat: 'json' }),
      validEnv({
        FUNDBOT_STORE: 'redis://:hunter2hunter2@redis:6379',
        FUNDBOT_API_BASE_URL: 'http://127.0.0.1:4010/',
        LOG_LEVEL: 'DEBUG',
        LOG_FORMAT: 'Pretty',
        PORT: '8080',
      }),
    );
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    expect(result.config.store.url).toBe('redis://:hunter2hunter2@redis:6379');
    expect(result.config.api.baseUrl).toBe('http://127.0.0.1:4010');
    expect(result.config.logLevel).toBe('debug');
    expect(result.config.logFormat).toBe('pretty');
    expect(result.config.http.port).toBe(8080);
  });

  it('reads the file named by FUNDBOT_CONFIG', () => {
    const fs = filesystem({ '/etc/fundbot.json': JSON.stringify(validFile()) });
    const result = loadConfig({ env: validEnv({ FUNDBOT_CONFIG: '/etc/fundbot.json' }), readFile: fs });
    expect(result.ok).toBe(true);
    expect(fs.reads).toEqual(['/etc/fundbot.json']);
  });

  it('keeps the example file valid once its placeholder API address is replaced (it is what people copy)', () => {
    const example = readFileSync(new URL('../../fundbot.config.example.json', import.meta.url), 'utf8');
    const env = validEnv({ RIVER_CLEANUP_API_KEY: 'svc_proj_Example0000000000000000' });
    const result = parseConfig(example, {
      env: { ...env, FUNDBOT_API_BASE_URL: 'https://api.crowdfunding.test' },
      source: 'fundbot.config.example.json',
    });
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    expect(result.warnings).toEqual([]);
    // As copied, its placeholder address is refused instead of "running" against nothing.
    expect(lines(parseConfig(example, { env, source: 'fundbot.config.example.json' }))).toEqual([
      "api.baseUrl: is a placeholder (api.crowdfunding.example, from the example config): set the address of your platform's Project Data API in api.baseUrl or FUNDBOT_API_BASE_URL",
    ]);
  });
});

describe('warnings', () => {
  it('warns when no chat platform is enabled and when a token is set for a disabled platform', () => {
    const result = load(validFile({ discord: { enabled: false }, slack: { enabled: false } }));
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    expect(result.warnings.map(formatConfigProblem)).toEqual([
      'discord.enabled: DISCORD_TOKEN is set but discord.enabled is false, so that platform stays off: set discord.enabled to true to use it, or unset DISCORD_TOKEN',
      'slack.enabled: SLACK_BOT_TOKEN is set but slack.enabled is false, so that platform stays off: set slack.enabled to true to use it, or unset SLACK_BOT_TOKEN',
      'discord.enabled, slack.enabled: no chat platform is enabled, so notices go nowhere: set discord.enabled or slack.enabled to true',
    ]);
  });
});
