import { describe, expect, it } from 'vitest';
import { formatConfigProblem } from '../../src/config/config-problem.js';
import { loadConfig } from '../../src/config/load-config.js';
import { validEnv, validFile, withConfig } from './config-builders.js';

function load(file: Record<string, unknown>, env: Record<string, string | undefined>) {
  return loadConfig({ env: validEnv(env), readFile: withConfig(file) });
}

describe('platform base URLs (SLACK_API_URL, DISCORD_API_URL, slack.apiUrl, discord.apiUrl)', () => {
  it('default to the platforms themselves', () => {
    const result = load(validFile(), {});
    if (!result.ok) throw new Error('expected a valid config');
    expect(result.config.slack).toMatchObject({ enabled: true, apiUrl: undefined });
    expect(result.config.discord).toMatchObject({ enabled: true, apiUrl: undefined });
  });

  it('come from the file, and the environment wins over it; trailing slashes go', () => {
    const file = validFile({
      slack: { enabled: true, mode: 'socket', admins: [], apiUrl: 'https://slack.gov.example.org/api/' },
      discord: { enabled: true, apiUrl: 'https://egress.corp.test/discord/api' },
    });
    const fromFile = load(file, {});
    if (!fromFile.ok) throw new Error(fromFile.problems.map(formatConfigProblem).join('\n'));
    expect(fromFile.config.slack).toMatchObject({ apiUrl: 'https://slack.gov.example.org/api' });
    expect(fromFile.config.discord).toMatchObject({ apiUrl: 'https://egress.corp.test/discord/api' });
    const fromEnv = load(file, {
      SLACK_API_URL: 'http://127.0.0.1:4010/api/',
      DISCORD_API_URL: 'http://localhost:4011/api',
    });
    if (!fromEnv.ok) throw new Error('expected a valid config');
    expect(fromEnv.config.slack).toMatchObject({ apiUrl: 'http://127.0.0.1:4010/api' });
    expect(fromEnv.config.discord).toMatchObject({ apiUrl: 'http://localhost:4011/api' });
  });

  it('are validated like api.baseUrl: plain http only to this machine, no credentials, named by where they came from', () => {
    const result = load(validFile(), {
      SLACK_API_URL: 'http://slack.proxy.corp.test/api',
      DISCORD_API_URL: 'https://user:pw@discord.proxy.test/api',
    });
    expect(result.ok).toBe(false);
    const lines = result.ok ? [] : result.problems.map(formatConfigProblem);
    expect(lines.join('\n')).toContain('env SLACK_API_URL');
    expect(lines.join('\n')).toMatch(
      /plain http to a remote host, which would send the Slack tokens unencrypted/,
    );
    expect(lines.join('\n')).toContain('env DISCORD_API_URL');
    expect(lines.join('\n')).toMatch(/contains credentials/);
    expect(lines.join('\n')).not.toContain('pw@');
  });
});
