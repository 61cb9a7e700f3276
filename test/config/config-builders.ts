import type { ReadTextFile } from '../../src/config/load-config.js';

/** Test keys: shaped like real ones so the "no secret in any text" checks mean something. */
export const SOLAR_KEY = 'svc_proj_SolarKioskTestKey0123456789';
export const RIVER_KEY = 'svc_proj_RiverCleanupTestKey987654321';
export const DISCORD_TOKEN = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWsAbCdEf';
export const SLACK_BOT_TOKEN = 'xoxb-1111111111-2222222222-AbCdEfGhIjKlMnOpQrStUvWx';
export const SLACK_APP_TOKEN = 'xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef';
export const SLACK_SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

export const ALL_SECRETS = [
  SOLAR_KEY,
  RIVER_KEY,
  DISCORD_TOKEN,
  SLACK_BOT_TOKEN,
  SLACK_APP_TOKEN,
  SLACK_SIGNING_SECRET,
];

/** A complete, valid config file as an object; override sections per test. */
export function validFile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api: { baseUrl: 'https://api.crowdfunding.test' },
    projects: [
      { linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
      { linkCaption: 'river-cleanup', apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
    ],
    discord: { enabled: true },
    slack: { enabled: true, mode: 'socket', admins: ['U012ABCDEF'] },
    digest: { time: '09:00', timeZone: 'Europe/Berlin' },
    ...overrides,
  };
}

/** The environment that makes {@link validFile} valid. */
export function validEnv(
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    SOLAR_KIOSK_API_KEY: SOLAR_KEY,
    RIVER_CLEANUP_API_KEY: RIVER_KEY,
    DISCORD_TOKEN,
    SLACK_BOT_TOKEN,
    SLACK_APP_TOKEN,
    ...overrides,
  };
}

/** A fake file system: reading a path it does not hold fails like Node does (ENOENT). */
export function filesystem(files: Record<string, string>): ReadTextFile & { reads: string[] } {
  const reads: string[] = [];
  const read = (path: string) => {
    reads.push(path);
    const text = files[path];
    if (text === undefined) {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    }
    return text;
  };
  return Object.assign(read, { reads });
}

/** A file system holding `file` at the default path. */
export function withConfig(file: unknown): ReadTextFile & { reads: string[] } {
  return filesystem({
    './fundbot.config.json': typeof file === 'string' ? file : JSON.stringify(file, null, 2),
  });
}
