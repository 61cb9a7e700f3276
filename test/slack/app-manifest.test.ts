import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildSlackAppManifest } from '../../src/adapters/slack/index.js';
import { commandDefinitions } from '../../src/domain/command-definitions.js';
import { everyManifestEvents } from './manifest-events.js';

describe('Slack app manifest', () => {
  it('declares exactly one command, /fundbot, whose usage hint lists the subcommands of the definitions', () => {
    const manifest = buildSlackAppManifest(commandDefinitions);
    expect(manifest.features.slash_commands).toEqual([
      {
        command: '/fundbot',
        description: 'Campaign figures, notices and the daily digest: /fundbot help lists the subcommands',
        usage_hint:
          'funding | rewards | reward | supporters | blog | subscribe | unsubscribe | subscriptions | thread | lowstock | notices | why | ping | filter | pacing | quiet | deadline | rollcall | watch | unwatch | chart | digest | language | status | connect | disconnect | projects | help',
        should_escape: false,
      },
    ]);
    // Generated, not typed twice: a new definition shows up in the hint.
    const extended = buildSlackAppManifest([
      ...commandDefinitions,
      { ...commandDefinitions[0]!, name: 'chart' },
    ]);
    expect(extended.features.slash_commands[0]?.usage_hint).toMatch(/ \| help \| chart$/);
  });

  it('asks for exactly the bot scopes fundbot uses', () => {
    const manifest = buildSlackAppManifest(commandDefinitions);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([
      'channels:history',
      'channels:read',
      'chat:write',
      'commands',
      'files:write',
      'groups:history',
      'groups:read',
      'im:write',
      'users:read',
    ]);
  });

  it('enables Socket Mode by default, with no request URLs', () => {
    const manifest = buildSlackAppManifest(commandDefinitions);
    expect(manifest.settings).toEqual({
      event_subscriptions: { bot_events: [...everyManifestEvents] },
      org_deploy_enabled: false,
      socket_mode_enabled: true,
      token_rotation_enabled: false,
    });
    for (const c of manifest.features.slash_commands) expect(c).not.toHaveProperty('url');
    expect(manifest.features.bot_user).toEqual({ display_name: 'fundbot', always_online: true });
    expect(manifest.display_information.description.length).toBeLessThanOrEqual(140);
  });

  it('points every command at <base>/slack/events in HTTP mode and turns Socket Mode off', () => {
    const manifest = buildSlackAppManifest(commandDefinitions, {
      httpBaseUrl: 'https://bot.example.com/fund',
    });
    expect(manifest.settings.socket_mode_enabled).toBe(false);
    for (const c of manifest.features.slash_commands)
      expect(c.url).toBe('https://bot.example.com/fund/slack/events');
  });

  it('refuses a request URL that is not https', () => {
    expect(() =>
      buildSlackAppManifest(commandDefinitions, { httpBaseUrl: 'http://bot.example.com' }),
    ).toThrow(/https/);
    expect(() => buildSlackAppManifest(commandDefinitions, { httpBaseUrl: 'bot.example.com' })).toThrow(
      /--http/,
    );
  });

  it('npm run commands:slack prints the manifest as JSON', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'commands/slack-manifest.ts', '--http', 'https://bot.example.com'],
      { cwd: new URL('../../', import.meta.url) },
    );
    const printed = JSON.parse(stdout) as ReturnType<typeof buildSlackAppManifest>;
    expect(printed).toEqual(
      buildSlackAppManifest(commandDefinitions, { httpBaseUrl: 'https://bot.example.com' }),
    );
  });
});
