import { describe, expect, it } from 'vitest';
import { formatConfigProblems } from '../../src/config/config-problem.js';
import {
  DISCORD_TOKEN,
  SLACK_APP_TOKEN,
  SLACK_BOT_TOKEN,
  SLACK_SIGNING_SECRET,
  SOLAR_KEY,
  validEnv,
  validFile,
} from './config-builders.js';
import { expectNoSecret, lines, load, problemsOf } from './helpers/load-results.js';

describe('no secret in any problem text', () => {
  const secretsInEnv = validEnv({
    SLACK_SIGNING_SECRET,
    SOLAR_KIOSK_API_KEY: `${SOLAR_KEY} `,
    RIVER_CLEANUP_API_KEY: `svc_user_${'x'.repeat(20)}`,
    DISCORD_TOKEN: `Bot ${DISCORD_TOKEN}`,
    SLACK_BOT_TOKEN: `${SLACK_APP_TOKEN}`,
    SLACK_APP_TOKEN: `${SLACK_BOT_TOKEN}`,
    FUNDBOT_STORE: `redis://:${SLACK_SIGNING_SECRET}@redis`,
  });
  const files: unknown[] = [
    validFile(),
    validFile({ slack: { enabled: true, mode: 'http', port: 9464 } }),
    validFile({ discord: { enabled: true, token: DISCORD_TOKEN }, slack: { botToken: SLACK_BOT_TOKEN } }),
    validFile({ projects: [{ linkCaption: SOLAR_KEY, apiKeyEnv: SOLAR_KEY, [SOLAR_KEY]: 1 }] }),
    `{ "api": { "baseUrl": "${SOLAR_KEY}" }, "projects": [${SLACK_APP_TOKEN}] }`,
    `{ "slack": { "signing": '${SLACK_SIGNING_SECRET}' } }`,
  ];
  it.each(files.map((file, i) => [i, file]))('case %i', (_i, file) => {
    const result = load(file, secretsInEnv);
    const text = formatConfigProblems(problemsOf(result));
    expectNoSecret(text);
    expect(text).not.toContain(SLACK_SIGNING_SECRET);
  });
});

describe('a password in api.baseUrl', () => {
  it('is reported once, with the fix for the API (not the store variable)', () => {
    const result = lines(
      load(validFile({ api: { baseUrl: 'https://bot:hunter2pass@api.crowdfunding.test' } })),
    );
    expect(result).toEqual([
      'api.baseUrl: holds what looks like a password in a URL; the config file must not contain secrets: remove user:password@ from the URL: the API takes no password, API keys come from projects[].apiKeyEnv',
    ]);
    expect(result.join('\n')).not.toContain('hunter2pass');
  });
});
