import { describe, expect, it } from 'vitest';
import { formatConfigProblems, parseConfig } from '../../src/config/index.js';
import { filesystem, SOLAR_KEY, validEnv, validFile } from './config-builders.js';

const text = JSON.stringify(validFile());

function problemsOf(env: Record<string, string | undefined>, files: Record<string, string> = {}) {
  const result = parseConfig(text, { env, source: 'test.json', readFile: filesystem(files) });
  return result.ok ? [] : formatConfigProblems(result.problems).split('\n').slice(1, -1);
}

describe('secrets from *_FILE variables (Docker and Kubernetes secrets)', () => {
  it('reads every secret variable from its file, without the trailing line break', () => {
    const { SOLAR_KIOSK_API_KEY, SLACK_BOT_TOKEN, DISCORD_TOKEN, ...rest } = validEnv();
    const result = parseConfig(text, {
      env: {
        ...rest,
        SOLAR_KIOSK_API_KEY_FILE: '/run/secrets/solar',
        SLACK_BOT_TOKEN_FILE: '/run/secrets/slack',
        DISCORD_TOKEN_FILE: '/run/secrets/discord',
      },
      source: 'test.json',
      readFile: filesystem({
        '/run/secrets/solar': `${SOLAR_KIOSK_API_KEY}\n`,
        '/run/secrets/slack': `${SLACK_BOT_TOKEN}\n`,
        '/run/secrets/discord': String(DISCORD_TOKEN),
      }),
    });
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    const solar = result.config.projects.find((p) => p.linkCaption === 'solar-kiosk');
    expect(solar?.apiKeyFile).toBe('/run/secrets/solar');
    expect(
      result.config.slack.enabled &&
        result.config.slack.mode !== 'oauth' &&
        result.config.slack.botToken.reveal(),
    ).toBe(SLACK_BOT_TOKEN);
    expect(result.config.discord.enabled && result.config.discord.token.reveal()).toBe(DISCORD_TOKEN);
  });

  it('an unreadable file, or both X and X_FILE set, is a problem naming the variable, never the content', () => {
    const lines = problemsOf({
      ...validEnv(),
      SLACK_BOT_TOKEN_FILE: '/run/secrets/slack',
      DISCORD_TOKEN_FILE: '/nope',
    });
    expect(lines).toEqual([
      '  1. env DISCORD_TOKEN_FILE: DISCORD_TOKEN and DISCORD_TOKEN_FILE are both set: keep one: DISCORD_TOKEN_FILE (a file holding the secret) or DISCORD_TOKEN (the secret itself)',
      '  2. env SLACK_BOT_TOKEN_FILE: SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE are both set: keep one: SLACK_BOT_TOKEN_FILE (a file holding the secret) or SLACK_BOT_TOKEN (the secret itself)',
    ]);
    const { SOLAR_KIOSK_API_KEY: _k, ...withoutKey } = validEnv();
    expect(problemsOf({ ...withoutKey, SOLAR_KIOSK_API_KEY_FILE: '/run/secrets/missing' })[0]).toBe(
      '  1. env SOLAR_KIOSK_API_KEY_FILE: names /run/secrets/missing, which cannot be read (ENOENT): mount the secret file there (Docker/Kubernetes secret) readable by the user fundbot runs as, or set SOLAR_KIOSK_API_KEY instead',
    );
  });
});

describe('*_FILE variables that are not fundbot’s secrets', () => {
  it('are neither read nor checked: another tool’s missing file stops nothing, a certificate path is not read', () => {
    const readFile = filesystem({ '/etc/ssl/certs/bundle.pem': '-----BEGIN CERTIFICATE-----' });
    const result = parseConfig(text, {
      env: {
        ...validEnv(),
        TF_CLI_CONFIG_FILE: '/home/ops/.terraformrc-missing',
        SSL_CERT_FILE: '/etc/ssl/certs/bundle.pem',
        // Known to fundbot, but not a secret: no twin either.
        FUNDBOT_API_BASE_URL_FILE: '/etc/ssl/certs/bundle.pem',
        LOG_LEVEL_FILE: '/nope',
      },
      source: 'test.json',
      readFile,
    });
    expect(result.ok ? [] : formatConfigProblems(result.problems)).toEqual([]);
    expect(readFile.reads).toEqual([]);
  });

  it('a project’s key variable named in the file has its twin; the same name unconfigured does not', () => {
    const { SOLAR_KIOSK_API_KEY, ...rest } = validEnv();
    const readFile = filesystem({ '/run/secrets/solar': `${SOLAR_KIOSK_API_KEY}\n` });
    const result = parseConfig(text, {
      env: { ...rest, SOLAR_KIOSK_API_KEY_FILE: '/run/secrets/solar', OTHER_PROJECT_API_KEY_FILE: '/nope' },
      source: 'test.json',
      readFile,
    });
    if (!result.ok) throw new Error(formatConfigProblems(result.problems));
    expect(readFile.reads).toEqual(['/run/secrets/solar']);
  });
});

describe('a key wrapped in something copied along', () => {
  it('"Bearer " and a leading space get their own message, not just "wrong prefix"', () => {
    expect(problemsOf(validEnv({ SOLAR_KIOSK_API_KEY: `Bearer ${SOLAR_KEY}` }))).toEqual([
      '  1. projects[0].apiKeyEnv: SOLAR_KIOSK_API_KEY starts with "Bearer ": that is the header fundbot sends, not part of the key: set only the key itself (svc_proj_…): fundbot adds the Authorization header, and a copied space or line break makes the API reject it',
    ]);
    expect(problemsOf(validEnv({ SOLAR_KIOSK_API_KEY: ` ${SOLAR_KEY}` }))[0]).toContain(
      'SOLAR_KIOSK_API_KEY starts with a space or line break',
    );
    expect(problemsOf(validEnv({ SLACK_BOT_TOKEN: 'Bearer xoxb-1-abc' }))[0]).toContain(
      'env SLACK_BOT_TOKEN: starts with "Bearer "',
    );
  });
});
