import { describe, expect, it } from 'vitest';
import { formatConfigProblems } from '../../src/config/config-problem.js';
import { resolveStartMode } from '../../src/config/resolve-start-mode.js';
import {
  DISCORD_TOKEN,
  filesystem,
  SLACK_BOT_TOKEN,
  validEnv,
  validFile,
  withConfig,
} from './config-builders.js';

describe('resolveStartMode', () => {
  it('starts the demo when there is no config file and no platform token', () => {
    const start = resolveStartMode({ env: { PATH: '/usr/bin' }, readFile: filesystem({}) });
    expect(start).toEqual({
      mode: 'demo',
      reason:
        'no config file at ./fundbot.config.json and no chat platform token (DISCORD_TOKEN, SLACK_BOT_TOKEN, SLACK_APP_TOKEN): starting the local demo',
    });
  });

  it('refuses the demo when a platform token is set but the config file is missing', () => {
    const start = resolveStartMode({ env: { DISCORD_TOKEN, SLACK_BOT_TOKEN }, readFile: filesystem({}) });
    if (start.mode !== 'invalid') throw new Error(`expected invalid, got ${start.mode}`);
    expect(formatConfigProblems(start.problems, start.source)).toBe(
      [
        'fundbot cannot start: 1 problem in the configuration (./fundbot.config.json)',
        '  1. ./fundbot.config.json: DISCORD_TOKEN and SLACK_BOT_TOKEN are set but the config file does not exist: copy fundbot.config.example.json to ./fundbot.config.json (or set FUNDBOT_CONFIG) and list your projects there; unset the tokens to run the demo instead',
        'See docs/configuration.md for every field.',
      ].join('\n'),
    );
    expect(formatConfigProblems(start.problems)).not.toContain(DISCORD_TOKEN);
  });

  it('starts the bot with a valid file', () => {
    const start = resolveStartMode({ env: validEnv(), readFile: withConfig(validFile()) });
    expect(start.mode).toBe('bot');
    expect(start.mode === 'bot' && start.config.projects.length).toBe(2);
  });

  it('reports the problems of an existing but invalid file, even without tokens', () => {
    const start = resolveStartMode({ env: {}, readFile: withConfig('{ "projects": [ }') });
    expect(start.mode).toBe('invalid');
    expect(start.mode === 'invalid' && start.problems[0]?.code).toBe('invalid_json');
  });

  it('FUNDBOT_CONFIG naming a missing file is an error, not the demo', () => {
    const fs = filesystem({});
    const start = resolveStartMode({ env: { FUNDBOT_CONFIG: '/config/fundbot.config.json' }, readFile: fs });
    expect(fs.reads).toEqual(['/config/fundbot.config.json']);
    if (start.mode !== 'invalid') throw new Error(`expected invalid, got ${start.mode}`);
    expect(formatConfigProblems(start.problems, start.source)).toContain(
      'env FUNDBOT_CONFIG: names /config/fundbot.config.json, which does not exist: fix the path (or mount the file there), or unset FUNDBOT_CONFIG',
    );
  });
});
