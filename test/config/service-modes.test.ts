import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem } from '../../src/config/config-problem.js';
import { loadConfig } from '../../src/config/load-config.js';
import { filesystem, SLACK_SIGNING_SECRET, validEnv, validFile } from './config-builders.js';

const PUBLIC_KEY = 'a'.repeat(64);
const APP_ID = '400000000000000001';
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const CLIENT_SECRET = 'c0ffee0123456789abcdef0123456789';
const STATE_SECRET = 'state-secret-0123456789abcdef0123';

function load(file: Record<string, unknown>, env: Record<string, string | undefined> = {}, files = {}) {
  return loadConfig({
    env: validEnv(env),
    readFile: filesystem({ './fundbot.config.json': JSON.stringify(file), ...files }),
  });
}

const lines = (result: ReturnType<typeof load>) =>
  result.ok ? [] : result.problems.map(formatConfigProblem);

describe('discord.mode', () => {
  it('defaults to the gateway', () => {
    const result = load(validFile());
    expect(result.ok && result.config.discord).toMatchObject({ enabled: true, mode: 'gateway' });
  });

  it('http takes the public key and application id from the file or the environment (which wins)', () => {
    const file = validFile({
      discord: { enabled: true, mode: 'http', applicationId: APP_ID, publicKey: 'b'.repeat(64), port: 3101 },
    });
    const fromFile = load(file);
    expect(fromFile.ok && fromFile.config.discord).toMatchObject({
      mode: 'http',
      applicationId: APP_ID,
      publicKey: 'b'.repeat(64),
      port: 3101,
    });
    const fromEnv = load(file, { DISCORD_PUBLIC_KEY: PUBLIC_KEY });
    expect(fromEnv.ok && fromEnv.config.discord).toMatchObject({ publicKey: PUBLIC_KEY });
  });

  it('http without a public key or application id says where to copy them from', () => {
    const text = lines(load(validFile({ discord: { enabled: true, mode: 'http' } }))).join('\n');
    expect(text).toContain(
      'discord.mode: Discord http mode needs the application\'s public key, and neither discord.publicKey nor DISCORD_PUBLIC_KEY is set: copy "Public Key" from the Discord Developer Portal',
    );
    expect(text).toContain('neither discord.applicationId nor DISCORD_APPLICATION_ID is set');
  });

  it('refuses a public key that is not 64 hex characters, naming where it came from', () => {
    const file = validFile({ discord: { enabled: true, mode: 'http', applicationId: APP_ID } });
    expect(lines(load(file, { DISCORD_PUBLIC_KEY: 'z'.repeat(64) })).join('\n')).toContain(
      'env DISCORD_PUBLIC_KEY: is not a Discord public key: it must be 64 hex characters (0-9, a-f), got 64 characters with non-hex ones',
    );
    expect(lines(load(file, { DISCORD_PUBLIC_KEY: 'ab12' })).join('\n')).toContain('got 4 characters');
  });

  it('refuses an interactions port shared with the health server or Slack', () => {
    const file = validFile({
      discord: { enabled: true, mode: 'http', applicationId: APP_ID, publicKey: PUBLIC_KEY, port: 9464 },
    });
    expect(lines(load(file)).join('\n')).toContain(
      'discord.port: the Discord interactions endpoint and the health/metrics server both want port 9464',
    );
  });
});

describe('Slack OAuth (slack.clientId)', () => {
  const oauthEnv = {
    SLACK_BOT_TOKEN: undefined,
    SLACK_APP_TOKEN: undefined,
    SLACK_CLIENT_SECRET: CLIENT_SECRET,
    SLACK_STATE_SECRET: STATE_SECRET,
    SLACK_SIGNING_SECRET,
    FUNDBOT_ENCRYPTION_KEY: ENCRYPTION_KEY,
  };
  const oauthFile = validFile({ slack: { enabled: true, mode: 'http', clientId: '1111.2222' } });

  it('with every part set, runs the install flow and needs no bot token', () => {
    const result = load(oauthFile, oauthEnv);
    if (!result.ok) throw new Error(lines(result).join('\n'));
    expect(result.config.slack).toMatchObject({ enabled: true, mode: 'oauth', clientId: '1111.2222' });
    expect(JSON.stringify(result.config)).not.toContain(CLIENT_SECRET);
  });

  it('takes the secrets from *_FILE variables like every other secret', () => {
    const result = load(
      oauthFile,
      { ...oauthEnv, SLACK_CLIENT_SECRET: undefined, SLACK_CLIENT_SECRET_FILE: '/run/secrets/client' },
      { '/run/secrets/client': `${CLIENT_SECRET}\n` },
    );
    if (!result.ok) throw new Error(lines(result).join('\n'));
    expect(
      result.config.slack.enabled &&
        result.config.slack.mode === 'oauth' &&
        result.config.slack.clientSecret.reveal(),
    ).toBe(CLIENT_SECRET);
  });

  it('names each missing part when only some are set', () => {
    const text = lines(
      load(oauthFile, { ...oauthEnv, SLACK_STATE_SECRET: undefined, FUNDBOT_ENCRYPTION_KEY: undefined }),
    ).join('\n');
    expect(text).toContain(
      'env SLACK_STATE_SECRET: is not set: export SLACK_STATE_SECRET with a long random string',
    );
    expect(text).toContain('env FUNDBOT_ENCRYPTION_KEY: is not set');
    expect(text).toContain('openssl rand -base64 32');
    const noClientId = lines(load(validFile({ slack: { enabled: true, mode: 'http' } }), oauthEnv)).join(
      '\n',
    );
    expect(noClientId).toContain('slack.clientId: is not set, but other OAuth settings are');
  });

  it('refuses Socket Mode, a malformed key and a malformed client id, with what to do', () => {
    const socket = lines(
      load(validFile({ slack: { enabled: true, mode: 'socket', clientId: '1111.2222' } }), oauthEnv),
    );
    expect(socket.join('\n')).toContain(
      'slack.mode: is "socket", but the OAuth install flow (slack.clientId) runs over HTTP',
    );
    const shortKey = lines(
      load(oauthFile, { ...oauthEnv, FUNDBOT_ENCRYPTION_KEY: randomBytes(16).toString('base64') }),
    );
    expect(shortKey.join('\n')).toContain(
      'env FUNDBOT_ENCRYPTION_KEY: must be 32 bytes in base64, but decodes to 16 bytes',
    );
    const badId = lines(
      load(validFile({ slack: { enabled: true, mode: 'http', clientId: 'xoxb' } }), oauthEnv),
    );
    expect(badId.join('\n')).toContain('slack.clientId: is not a Slack client id');
  });

  it('refuses a short SLACK_STATE_SECRET (issue 24: 3 characters were accepted), naming the length only', () => {
    const text = lines(load(oauthFile, { ...oauthEnv, SLACK_STATE_SECRET: 'abc' })).join('\n');
    expect(text).toContain('env SLACK_STATE_SECRET: is 3 characters long; it must have at least 32');
    expect(text).toContain('openssl rand -hex 32');
    expect(text).not.toContain('abc"');
  });
});

describe('publicUrl / FUNDBOT_PUBLIC_URL', () => {
  it('is optional, trimmed of trailing slashes, and the environment wins', () => {
    expect(load(validFile()).ok && load(validFile()).ok).toBe(true);
    const result = load(validFile({ publicUrl: 'https://file.example.org/' }), {
      FUNDBOT_PUBLIC_URL: 'https://bot.example.org/fundbot/',
    });
    expect(result.ok && result.config.publicUrl).toBe('https://bot.example.org/fundbot');
  });

  it('must be https (plain http only to this machine)', () => {
    expect(lines(load(validFile({ publicUrl: 'http://bot.example.org' }))).join('\n')).toContain(
      'publicUrl: uses plain http to a remote host',
    );
  });
});
