import { describe, expect, it } from 'vitest';
import { buildSlackAppManifest } from '../../src/adapters/slack/index.js';
import { commandDefinitions } from '../../src/domain/command-definitions.js';
import { everyManifestEvents, oauthManifestEvents } from './manifest-events.js';

describe('Slack app manifest for many workspaces (--oauth)', () => {
  it('adds the redirect URL and the uninstall events next to the request URL', () => {
    const manifest = buildSlackAppManifest(commandDefinitions, {
      httpBaseUrl: 'https://bot.example.com/fundbot',
      oauth: true,
    });
    expect(manifest.oauth_config.redirect_urls).toEqual([
      'https://bot.example.com/fundbot/slack/oauth_redirect',
    ]);
    expect(manifest.settings.event_subscriptions).toEqual({
      request_url: 'https://bot.example.com/fundbot/slack/events',
      bot_events: [...oauthManifestEvents],
    });
    // Hosted fundbot: the connect form and the App Home's buttons, and the App Home tab itself.
    expect(manifest.settings.interactivity).toEqual({
      is_enabled: true,
      request_url: 'https://bot.example.com/fundbot/slack/events',
    });
    expect(manifest.features.app_home).toEqual({ home_tab_enabled: true, messages_tab_enabled: true });
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('gives single-workspace manifests no redirect URL and only the access and own-message events', () => {
    const manifest = buildSlackAppManifest(commandDefinitions, { httpBaseUrl: 'https://bot.example.com' });
    expect(manifest.oauth_config).not.toHaveProperty('redirect_urls');
    expect(manifest.settings.event_subscriptions).toEqual({
      request_url: 'https://bot.example.com/slack/events',
      bot_events: [...everyManifestEvents],
    });
  });

  it('refuses --oauth without a public URL, saying why', () => {
    expect(() => buildSlackAppManifest(commandDefinitions, { oauth: true })).toThrow(/--oauth needs --http/);
  });
});
