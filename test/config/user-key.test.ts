import { describe, expect, it } from 'vitest';
import { formatConfigProblem } from '../../src/config/config-problem.js';
import { loadConfig } from '../../src/config/load-config.js';
import { filesystem, SOLAR_KEY, validEnv, validFile } from './config-builders.js';

const USER_KEY = 'svc_user_OwnerTestKey0123456789abcdef';

function load(file: Record<string, unknown>, env: Record<string, string | undefined>, files = {}) {
  return loadConfig({
    env,
    readFile: filesystem({ './fundbot.config.json': JSON.stringify(file), ...files }),
  });
}

describe('the optional User API key (api.userKey, FUNDBOT_USER_KEY)', () => {
  it('is off when FUNDBOT_USER_KEY is unset', () => {
    const result = load(validFile(), validEnv());
    expect(result.ok && result.config.api.userKey).toBeUndefined();
  });

  it('is read from FUNDBOT_USER_KEY or its _FILE twin, and never shown', () => {
    for (const [env, files] of [
      [validEnv({ FUNDBOT_USER_KEY: USER_KEY }), {}],
      [validEnv({ FUNDBOT_USER_KEY_FILE: '/run/secrets/user' }), { '/run/secrets/user': `${USER_KEY}\n` }],
    ] as const) {
      const result = load(validFile(), env, files);
      if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
      expect(result.config.api.userKey?.kind).toBe('user');
      expect(JSON.stringify(result.config)).not.toContain(USER_KEY);
    }
  });

  it('api.userKey: false switches it off even when the variable is set', () => {
    const file = validFile({ api: { baseUrl: 'https://api.crowdfunding.test', userKey: false } });
    const result = load(file, validEnv({ FUNDBOT_USER_KEY: USER_KEY }));
    expect(result.ok).toBe(true);
    expect(result.ok && result.config.api.userKey).toBeUndefined();
  });

  it('a Project API key in FUNDBOT_USER_KEY is a problem that says what to do, without the value', () => {
    const result = load(validFile(), validEnv({ FUNDBOT_USER_KEY: SOLAR_KEY }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.problems.map(formatConfigProblem).join('\n');
    expect(text).toContain('FUNDBOT_USER_KEY');
    expect(text).toContain('api.userKey to false');
    expect(text).not.toContain(SOLAR_KEY);
  });
});
