import { describe, expect, it } from 'vitest';
import { commandDefinitions, findCommand, slackCommand } from '../../src/domain/command-definitions.js';

const languages = ['en', 'de'] as const;

describe('the command definitions', () => {
  it('fit Discord limits in both languages (names ≤ 32 lower-case, descriptions ≤ 100) so nothing is cut', () => {
    for (const command of commandDefinitions) {
      expect(command.name).toMatch(/^[a-z][a-z0-9-]{0,31}$/);
      for (const lang of languages) expect(command.description[lang].length).toBeLessThanOrEqual(100);
      for (const option of command.options) {
        expect(option.name).toMatch(/^[a-z][a-z0-9-]{0,31}$/);
        for (const lang of languages) expect(option.description[lang].length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('have unique names; on Slack they are subcommands of the one /fundbot command', () => {
    const names = commandDefinitions.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(slackCommand.name);
    expect(findCommand('status')?.name).toBe('status');
    for (const lang of languages) expect(slackCommand.description[lang].length).toBeLessThanOrEqual(2000);
  });

  it('put required options before optional ones (Discord rejects the reverse)', () => {
    for (const command of commandDefinitions) {
      const firstOptional = command.options.findIndex((o) => !o.required);
      if (firstOptional >= 0)
        expect(command.options.slice(firstOptional).every((o) => !o.required)).toBe(true);
    }
  });

  it('mark exactly the channel-changing commands and the project connections as admin-only', () => {
    const admin = commandDefinitions.filter((c) => c.admin).map((c) => c.name);
    expect(admin.sort()).toEqual([
      'connect',
      'deadline',
      'disconnect',
      'filter',
      'language',
      'lowstock',
      'pacing',
      'ping',
      'quiet',
      'rollcall',
      'subscribe',
      'thread',
      'unsubscribe',
    ]);
  });
});
