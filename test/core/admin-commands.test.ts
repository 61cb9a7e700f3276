import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { buildProject } from '../support/builders.js';
import { allText, createCoreFixture, discordChannel } from '../support/core-fixture.js';

const slackChannel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'C9' };
const twoProjects = [
  { project: buildProject() },
  { project: buildProject({ id: 2, title: 'Tiny Farm', link_caption: 'tiny-farm' }) },
];

describe('/subscribe and /unsubscribe', () => {
  test('an admin subscribes the invoking channel to the given kinds', async () => {
    const f = createCoreFixture();
    const m = await f.run(
      'subscribe',
      { project: 'solar-kiosk', kinds: 'wall, blog' },
      { canAdminister: true },
    );
    expect(m.private).toBe(true);
    expect(m.tone).toBe('success');
    expect(m.text).toBe('✅ This channel now gets wall and blog notices of Solar Kiosk.');
    expect(await f.subscriptions.forProject('solar-kiosk', 'wall')).toHaveLength(1);
    expect(await f.subscriptions.forProject('solar-kiosk', 'supporters')).toHaveLength(0);
    const [sub] = await f.subscriptions.forChannel(discordChannel);
    expect(sub?.createdBy).toBe('U1');
  });

  test('no kinds means every kind', async () => {
    const f = createCoreFixture();
    await f.run('subscribe', { project: 'solar-kiosk' }, { canAdminister: true });
    const [sub] = await f.subscriptions.forChannel(discordChannel);
    expect(sub?.kinds).toEqual(['supporters', 'wall', 'blog', 'milestones', 'rewards', 'digest']);
  });

  test('a non-admin is refused, whatever the platform let through, and nothing is stored', async () => {
    const f = createCoreFixture();
    const m = await f.run('subscribe', { project: 'solar-kiosk' }, { canAdminister: false });
    expect(m.private).toBe(true);
    expect(m.tone).toBe('error');
    expect(m.text).toBe('You need the Manage Server permission for this. Ask a server admin.');
    expect(await f.subscriptions.forChannel(discordChannel)).toEqual([]);
    const slack = await f.run(
      'unsubscribe',
      { project: 'solar-kiosk' },
      { canAdminister: false, channel: slackChannel },
    );
    expect(slack.text).toBe('Only workspace admins can do this. Ask an admin of this workspace.');
  });

  test('invalid kinds are refused with the list of valid ones', async () => {
    const f = createCoreFixture();
    const m = await f.run(
      'subscribe',
      { project: 'solar-kiosk', kinds: 'wall twitter' },
      { canAdminister: true },
    );
    expect(m.private).toBe(true);
    expect(m.text).toBe(
      'Unknown notice kind "twitter". Valid kinds: supporters, wall, blog, milestones, rewards, digest.',
    );
    expect(await f.subscriptions.forChannel(discordChannel)).toEqual([]);
  });

  test('a project that is not watched is refused with the watched list', async () => {
    const f = createCoreFixture({ projects: twoProjects });
    const m = await f.run('subscribe', { project: 'evil-project' }, { canAdminister: true });
    expect(m.private).toBe(true);
    expect(m.text).toBe(
      'fundbot does not watch "evil-project". Watched projects: solar-kiosk and tiny-farm.',
    );
  });

  test('unsubscribing some kinds keeps the rest; unsubscribing all removes it', async () => {
    const f = createCoreFixture();
    await f.run(
      'subscribe',
      { project: 'solar-kiosk', kinds: 'wall blog supporters' },
      { canAdminister: true },
    );
    const some = await f.run(
      'unsubscribe',
      { project: 'solar-kiosk', kinds: 'wall' },
      { canAdminister: true },
    );
    expect(some.text).toBe(
      'This channel no longer gets wall notices of Solar Kiosk.\nStill subscribed: supporters and blog.',
    );
    const rest = await f.run('unsubscribe', { project: 'solar-kiosk' }, { canAdminister: true });
    expect(rest.text).toContain('No notices of it are left in this channel.');
    expect(await f.subscriptions.forChannel(discordChannel)).toEqual([]);
  });

  test('unsubscribing a channel that is not subscribed says so privately', async () => {
    const m = await createCoreFixture().run(
      'unsubscribe',
      { project: 'solar-kiosk' },
      { canAdminister: true },
    );
    expect(m.private).toBe(true);
    expect(m.text).toBe('This channel is not subscribed to Solar Kiosk.');
  });

  test('a project no longer watched can still be unsubscribed', async () => {
    const f = createCoreFixture();
    await f.subscriptions.subscribe(discordChannel, 'old-project', ['wall'], 'U1');
    const m = await f.run('unsubscribe', { project: 'old-project' }, { canAdminister: true });
    expect(m.tone).toBe('success');
    expect(await f.subscriptions.forChannel(discordChannel)).toEqual([]);
  });

  test('/subscriptions lists what this channel gets', async () => {
    const f = createCoreFixture({ projects: twoProjects });
    expect((await f.run('subscriptions')).text).toContain('This channel has no subscriptions');
    await f.run('subscribe', { project: 'tiny-farm', kinds: 'blog' }, { canAdminister: true });
    await f.run(
      'subscribe',
      { project: 'solar-kiosk', kinds: 'supporters milestones' },
      { canAdminister: true },
    );
    const m = await f.run('subscriptions');
    expect(m.text).toBe(
      '• Tiny Farm: blog (live)\n• Solar Kiosk: supporters (auto) and milestones (live)\nQuiet hours: off',
    );
  });
});

describe('/language and locales', () => {
  test('localeFor: channel setting, else workspace setting, else the default en', async () => {
    const f = createCoreFixture();
    const other: ChannelRef = { ...discordChannel, channelId: 'C2' };
    expect(await f.core.localeFor(discordChannel)).toBe('en');
    await f.run('language', { locale: 'de', scope: 'workspace' }, { canAdminister: true });
    expect(await f.core.localeFor(other)).toBe('de');
    await f.run('language', { locale: 'en' }, { canAdminister: true });
    expect(await f.core.localeFor(discordChannel)).toBe('en');
    expect(await f.core.localeFor(other)).toBe('de');
  });

  test('the confirmation comes in the new language, privately', async () => {
    const m = await createCoreFixture().run('language', { locale: 'de' }, { canAdminister: true });
    expect(m).toMatchObject({ private: true, tone: 'success', text: 'Dieser Kanal spricht jetzt Deutsch.' });
  });

  test('non-admins cannot change the language', async () => {
    const f = createCoreFixture();
    const m = await f.run('language', { locale: 'de' }, { canAdminister: false });
    expect(m.tone).toBe('error');
    expect(await f.core.localeFor(discordChannel)).toBe('en');
  });

  test('an unknown language or scope is a private error', async () => {
    const f = createCoreFixture();
    expect((await f.run('language', { locale: 'fr' }, { canAdminister: true })).text).toBe(
      '"fr" is not a language fundbot speaks. Choose one of: en, de.',
    );
    expect(
      (await f.run('language', { locale: 'de', scope: 'galaxy' }, { canAdminister: true })).text,
    ).toContain('is not a scope');
  });

  test("the user's platform locale is used for private errors only when nothing is set", async () => {
    const f = createCoreFixture();
    const error = await f.run('subscribe', { project: 'solar-kiosk' }, { platformLocale: 'de-AT' });
    expect(error.text).toBe(
      'Dafür brauchst du die Berechtigung „Server verwalten“. Frag einen Server-Admin.',
    );
    const answer = await f.run('funding', {}, { platformLocale: 'de-AT' });
    expect(answer.fields?.[0]?.name).toBe('Funding');
    await f.settings.setLocale(discordChannel, 'channel', 'en');
    const errorAfter = await f.run('subscribe', { project: 'solar-kiosk' }, { platformLocale: 'de-AT' });
    expect(errorAfter.text).toContain('Manage Server');
  });

  test('defaultLocale applies where nothing is set', async () => {
    const f = createCoreFixture({ deps: { defaultLocale: 'de' } });
    expect((await f.run('funding')).fields?.[0]?.name).toBe('Finanzierung');
  });
});

describe('project resolution', () => {
  test('the configured default project wins when none is given', async () => {
    const f = createCoreFixture({ projects: twoProjects, deps: { defaultProject: 'tiny-farm' } });
    expect((await f.run('funding')).title).toBe('Tiny Farm');
  });

  test('the only watched project is used', async () => {
    expect((await createCoreFixture().run('funding')).title).toBe('Solar Kiosk');
  });

  test("with several watched, the channel's single subscribed project is used", async () => {
    const f = createCoreFixture({ projects: twoProjects });
    await f.subscriptions.subscribe(discordChannel, 'tiny-farm', ['wall'], 'U1');
    expect((await f.run('funding')).title).toBe('Tiny Farm');
  });

  test('otherwise a private "which project?" lists the choices', async () => {
    const m = await createCoreFixture({ projects: twoProjects }).run('funding');
    expect(m).toMatchObject({
      private: true,
      tone: 'error',
      text: 'Which project? Add one of: solar-kiosk and tiny-farm.',
    });
  });

  test('a given project matches case-insensitively by link caption or title', async () => {
    const f = createCoreFixture({ projects: twoProjects });
    expect((await f.run('funding', { project: 'TINY-FARM' })).title).toBe('Tiny Farm');
    expect((await f.run('funding', { project: 'tiny farm' })).title).toBe('Tiny Farm');
  });
});

describe('autocomplete', () => {
  const many = Array.from({ length: 40 }, (_, i) => ({
    project: buildProject({
      id: i,
      title: `Garden ${i}`,
      link_caption: `garden-${String(i).padStart(2, '0')}`,
    }),
  }));

  test('matches watched projects by link caption and title, case-insensitive, at most 25', async () => {
    const f = createCoreFixture({ projects: [...twoProjects, ...many] });
    const ctx = { user: { id: 'U', displayName: 'U' }, channel: discordChannel, canAdminister: false };
    expect(await f.core.autocomplete('funding', 'project', 'TINY', ctx)).toEqual([
      { name: 'Tiny Farm (tiny-farm)', value: 'tiny-farm' },
    ]);
    expect(await f.core.autocomplete('funding', 'project', 'farm', ctx)).toHaveLength(1);
    expect(await f.core.autocomplete('rewards', 'project', 'garden', ctx)).toHaveLength(25);
    expect(await f.core.autocomplete('reward', 'id', '1', ctx)).toEqual([]);
  });
});

describe('/status, /help, /digest', () => {
  test('/status shows polls with age, disabled feeds, budget, errors and the version', async () => {
    const t0 = Date.UTC(2026, 0, 1);
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject(),
          status: {
            feeds: [
              { feed: 'project', lastSuccessAt: t0 - 20_000, intervalMs: 30_000 },
              {
                feed: 'wall',
                lastSuccessAt: null,
                intervalMs: 60_000,
                disabledReason: { code: 'scope-missing', params: { feed: 'wall', scope: 'wall:read' } },
              },
              { feed: 'blog', lastSuccessAt: null, intervalMs: 300_000 },
            ],
            budget: {
              dayLimit: 10_000,
              dayRemaining: 9_876,
              dayResetAt: Date.UTC(2026, 0, 2),
              minuteRemaining: 100,
            },
            recentErrors: [
              {
                at: t0 - 60_000,
                note: { code: 'poll-failed', params: { feed: 'wall', failure: 'http-error', status: 503 } },
              },
              { at: t0 - 120_000, note: { code: 'key-rejected', params: {} } },
            ],
            paused: null,
          },
        },
      ],
    });
    const m = await f.run('status');
    const text = allText(m);
    for (const line of [
      'Project\nlast poll 20 seconds ago (every 30 seconds)',
      'disabled: the API key lacks wall:read: wall notices are off',
      'no successful poll yet',
      '9,876 of 10,000 requests left · resets Jan 2, 2026, 00:00 UTC',
      'Dec 31, 2025, 23:59 UTC: Wall: the platform answered with an error (HTTP 503)',
      'the platform rejected the API key (invalid, disabled or deleted)',
    ])
      expect(text).toContain(line);
    expect(m.footer).toBe('fundbot 0.1.0-test');
  });

  test('/status names the causes /healthz names, in the channel language: paused key, failing store, API drift', async () => {
    const t0 = Date.UTC(2026, 0, 1);
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject(),
          status: {
            feeds: [{ feed: 'project', lastSuccessAt: t0 - 20_000, intervalMs: 30_000 }],
            budget: { dayLimit: null, dayRemaining: null, dayResetAt: null, minuteRemaining: null },
            recentErrors: [],
            paused: { reason: { code: 'key-rejected', params: {} }, since: t0 - 600_000 },
          },
        },
      ],
      deps: {
        operationalNotes: () => [
          {
            cause: 'store-failing',
            detail: 'Redis at cache:6379 fails since 42 s: get failed: ECONNREFUSED',
          },
          {
            cause: 'api-drift',
            detail: 'the API description changed on 2026-01-01: 1 change (removed field x)',
          },
          { cause: 'polling-ceiling', detail: "its keys' plans 490.2 requests a second, its ceiling 303" },
        ],
      },
    });
    const en = await f.run('status');
    const operation = en.fields?.find((field) => field.name === 'Operation')?.value ?? '';
    for (const line of [
      'Polling paused since',
      "replace this project's API key",
      'The store does not answer (Redis at cache:6379 fails since 42 s',
      "The platform's API changed: the API description changed on 2026-01-01",
      "Feeds are read more slowly than the project's API plan allows: this fundbot process polls as fast as it may (its keys' plans 490.2 requests a second, its ceiling 303). The operator can add a replica.",
    ])
      expect(operation).toContain(line);
    expect(en.tone).toBe('warning');
    expect(JSON.stringify(en)).not.toContain('LEAKEDKEY');
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    const de = await f.run('status');
    const betrieb = de.fields?.find((field) => field.name === 'Betrieb')?.value ?? '';
    expect(betrieb).toContain('Abfragen pausiert seit');
    // The engine's note in German, not English (issue 23).
    expect(betrieb).toContain('die Plattform lehnt den API-Schlüssel ab');
    expect(betrieb).not.toContain('rejected');
    expect(betrieb).toContain('Der Speicher antwortet nicht');
    expect(betrieb).toContain('Die API der Plattform hat sich geändert');
    expect(betrieb).toContain('Der Betreiber kann eine Replik hinzufügen');
  });

  test('/status without a cause shows no operation field', async () => {
    const m = await createCoreFixture().run('status');
    expect(m.fields?.some((field) => field.name === 'Operation')).toBe(false);
  });

  test('/help lists every command with localized descriptions and Slack names on Slack', async () => {
    const f = createCoreFixture();
    const en = await f.run('help');
    expect(en.private).toBe(true);
    expect(en.text).toContain('/reward <id> [project]: One reward in detail, with its variations');
    expect(en.text).toContain('/status [project]');
    const slack = await f.run('help', {}, { channel: slackChannel });
    expect(slack.text).toContain('/fundbot status [project]');
    expect(slack.text).not.toMatch(/^\/status/m);
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    expect((await f.run('help')).text).toContain('Ein Dankeschön im Detail, mit Varianten');
  });

  test('/digest without a configured preview says so privately', async () => {
    const m = await createCoreFixture().run('digest');
    expect(m).toMatchObject({ private: true, text: 'The daily digest is not configured on this bot.' });
  });

  test('/digest hands the project and the channel locale to the digest preview', async () => {
    const asked: [string, string][] = [];
    const f = createCoreFixture({
      deps: {
        digestPreview: async (project, locale) => {
          asked.push([project, locale]);
          return { title: `digest ${project}` };
        },
      },
    });
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    expect((await f.run('digest')).title).toBe('digest solar-kiosk');
    expect(asked).toEqual([['solar-kiosk', 'de']]);
  });

  test('an unknown command is a private error', async () => {
    const m = await createCoreFixture().run('teleport');
    expect(m).toMatchObject({
      private: true,
      tone: 'error',
      text: 'There is no command "teleport". Try /help.',
    });
  });
});
