import { describe, expect, test } from 'vitest';
import { buildHistoryPoint, buildProject, t0 } from '../support/builders.js';
import { allText, allUrls, createCoreFixture } from '../support/core-fixture.js';
import { FakeApiError } from '../support/fake-read-model.js';

const hour = 3_600_000;

describe('/funding', () => {
  test('shows funding of the goal in the project currency, progress, supporters, model and status', async () => {
    const f = createCoreFixture();
    const m = await f.run('funding');
    const text = allText(m);
    expect(m.title).toBe('Solar Kiosk');
    expect(text).toContain('€12,345 of €20,000');
    expect(m.fields?.find((x) => x.name === 'Supporters')?.value).toBe('123');
    expect(text).toContain('All-or-nothing: €7,655 still needed');
    expect(text).toContain('Funding phase');
    // The bar is the progress, drawn once by the adapter: no field repeats it (issue 23). 61.7 % floors to 61%.
    expect(m.progress).toEqual({
      current: 12_345,
      goal: 20_000,
      percent: (12_345 / 20_000) * 100,
      label: '61%',
    });
    expect(text).not.toMatch(/[▰▱]/);
    expect(m.private).toBeUndefined();
  });

  test('links the title to url.main and offers it as the support link', async () => {
    const f = createCoreFixture();
    const m = await f.run('funding');
    expect(m.titleUrl).toBe('https://platform.example/solar-kiosk');
    expect(m.links).toEqual([{ label: 'Support the project', url: 'https://platform.example/solar-kiosk' }]);
  });

  test('a url.main that is not http(s) gives no link at all', async () => {
    const f = createCoreFixture({
      projects: [{ project: buildProject({ url: { main: 'javascript:alert(1)' } }) }],
    });
    const m = await f.run('funding');
    expect(allUrls(m)).toEqual([]);
  });

  test('all-or-nothing with the goal reached says so; flexible funding says every support counts', async () => {
    const reached = createCoreFixture({ projects: [{ project: buildProject({ current_funding: 21_000 }) }] });
    expect(allText(await reached.run('funding'))).toContain('All-or-nothing: goal reached');
    expect((await reached.run('funding')).tone).toBe('success');
    const flexible = createCoreFixture({
      projects: [{ project: buildProject({ project_type_all_or_nothing: false }) }],
    });
    expect(allText(await flexible.run('funding'))).toContain('Flexible funding: every support counts');
  });

  test.each([
    ['new', undefined, 'Draft'],
    ['started', undefined, 'Start phase'],
    ['active', undefined, 'Funding phase'],
    ['successful', undefined, 'Successfully funded'],
    ['successful', 'payoff', 'Paid out'],
    ['mystery', undefined, '“mystery”'],
  ])('project status %s (process %s) reads "%s"', async (status, processStatus, words) => {
    const f = createCoreFixture({
      projects: [{ project: buildProject({ status, process_status: processStatus ?? null }) }],
    });
    expect((await f.run('funding')).fields?.find((x) => x.name === 'Project status')?.value).toContain(words);
  });

  test('the pace extrapolates the last 24 hours to the goal', async () => {
    // 2,345 gained in 20 hours -> 2,814 a day; 7,655 missing -> ~2.7 days.
    const f = createCoreFixture({
      projects: [
        { project: buildProject(), history: [buildHistoryPoint({ at: t0 - 20 * hour, funding: 10_000 })] },
      ],
    });
    const pace = (await f.run('funding')).fields?.find((x) => x.name === 'Pace')?.value;
    expect(pace).toBe(
      'At this pace the goal is reached in ~3 days (≈ €2,814 per day over the last 24 hours)',
    );
    expect(f.readModel.callsOf('history')[0]?.args).toEqual([t0 - 24 * hour]);
  });

  test('once the goal is reached the pace aims at the next milestone', async () => {
    const f = createCoreFixture({
      projects: [
        {
          project: buildProject({ current_funding: 22_000 }),
          history: [buildHistoryPoint({ at: t0 - 24 * hour, funding: 20_000 })],
        },
      ],
    });
    const pace = (await f.run('funding')).fields?.find((x) => x.name === 'Pace')?.value;
    expect(pace).toBe('At this pace 150% of the goal is reached in ~4 days (≈ €2,000 per day)');
  });

  test('no growth in the last 24 hours says there were no supports', async () => {
    const f = createCoreFixture({
      projects: [
        { project: buildProject(), history: [buildHistoryPoint({ at: t0 - 24 * hour, funding: 12_345 })] },
      ],
    });
    expect((await f.run('funding')).fields?.find((x) => x.name === 'Pace')?.value).toBe(
      'No supports in the last 24 hours',
    );
  });

  test('without an hour of history it does not guess a pace', async () => {
    const f = createCoreFixture({
      projects: [{ project: buildProject(), history: [buildHistoryPoint({ at: t0 - 10 * 60_000 })] }],
    });
    expect((await f.run('funding')).fields?.find((x) => x.name === 'Pace')?.value).toContain(
      'Not enough history',
    );
  });

  test('a failing history read still answers with the figures', async () => {
    const f = createCoreFixture();
    f.readModel.failWith('solar-kiosk', 'history', new Error('history store down'));
    const m = await f.run('funding');
    expect(m.tone).not.toBe('error');
    expect(allText(m)).toContain('€12,345 of €20,000');
  });

  test('the footer says how fresh the figures are', async () => {
    const f = createCoreFixture();
    f.readModel.setFreshness('solar-kiosk', 'project', { fetchedAt: t0 - 20_000 });
    expect((await f.run('funding')).footer).toBe('Updated 20 seconds ago');
  });

  test('stale figures are labelled with their age and the reason, in the channel language', async () => {
    const f = createCoreFixture();
    f.readModel.setFreshness('solar-kiosk', 'project', {
      fetchedAt: t0 - 12 * 60_000,
      staleBecause: { code: 'read-failed', params: { failure: 'timeout' } },
    });
    const m = await f.run('funding');
    expect(m.footer).toBe('Figures from 12 minutes ago: the platform did not answer in time');
    expect(m.tone).toBe('warning');
    expect(m.private).toBeUndefined();
    await f.settings.setLocale({ platform: 'discord', workspaceId: 'G1', channelId: 'C1' }, 'channel', 'de');
    expect((await f.run('funding')).footer).toBe(
      'Zahlen von vor 12 Minuten: die Plattform hat nicht rechtzeitig geantwortet',
    );
  });

  test('asks the read model with the funding freshness (60 s by default, configurable)', async () => {
    const f = createCoreFixture();
    await f.run('funding');
    expect(f.readModel.callsOf('project')[0]?.args).toEqual([60_000]);
    const g = createCoreFixture({ deps: { freshness: { fundingMs: 5_000 } } });
    await g.run('funding');
    expect(g.readModel.callsOf('project')[0]?.args).toEqual([5_000]);
  });

  test('an API failure with nothing cached answers privately without the error text or a key', async () => {
    const f = createCoreFixture();
    f.readModel.failWith('solar-kiosk', 'project', new FakeApiError(503, 'http_503'));
    const m = await f.run('funding');
    expect(m.private).toBe(true);
    expect(m.tone).toBe('error');
    expect(m.text).toBe('The crowdfunding platform is not answering right now; try again in a minute.');
    expect(JSON.stringify(m)).not.toMatch(/svc_|SECRET|503|stack/i);
  });

  test('a missing scope is explained as a permission problem, a rate limit as one', async () => {
    const f = createCoreFixture();
    f.readModel.failWith('solar-kiosk', 'project', new FakeApiError(403, 'insufficient_scope'));
    expect((await f.run('funding')).text).toContain("fundbot's API key may not read this");
    f.readModel.failWith('solar-kiosk', 'project', new FakeApiError(429, 'rate_limit_exceeded'));
    expect((await f.run('funding')).text).toContain('API budget');
  });

  test('an unexpected exception becomes a private generic reply, never a stack trace', async () => {
    const f = createCoreFixture();
    f.readModel.failWith('solar-kiosk', 'project', new TypeError('boom at Object.<anonymous> (/src/x.ts:1)'));
    const m = await f.run('funding');
    expect(m.private).toBe(true);
    expect(JSON.stringify(m)).not.toContain('boom');
  });

  test('German: currency, numbers and words follow the locale', async () => {
    const f = createCoreFixture({
      projects: [
        { project: buildProject(), history: [buildHistoryPoint({ at: t0 - 20 * hour, funding: 10_000 })] },
      ],
    });
    await f.settings.setLocale({ platform: 'discord', workspaceId: 'G1', channelId: 'C1' }, 'channel', 'de');
    f.readModel.setFreshness('solar-kiosk', 'project', { fetchedAt: t0 - 20_000 });
    const m = await f.run('funding');
    const text = allText(m);
    expect(text).toContain('12.345 € von 20.000 €');
    expect(m.progress?.label).toBe('61 %');
    expect(text).toContain('Alles-oder-nichts: bis zum Ziel fehlen noch 7.655 €');
    expect(text).toContain('In diesem Tempo ist das Ziel in ~3 Tagen erreicht');
    expect(m.footer).toBe('Aktualisiert vor 20 Sekunden');
  });

  test('other currencies are formatted as such', async () => {
    const f = createCoreFixture({
      projects: [{ project: buildProject({ currency: 'CHF', current_funding: 1234.5 }) }],
    });
    expect(allText(await f.run('funding'))).toContain('CHF 1,234.50 of CHF 20,000');
  });
});

describe('read failure classification', () => {
  test('a feed the engine disabled (code feed_disabled) reads as a permission problem', async () => {
    const { classifyReadFailure } = await import('../../src/core/read-failure.js');
    expect(classifyReadFailure(Object.assign(new Error('no wall:read'), { code: 'feed_disabled' }))).toBe(
      'not-permitted',
    );
    expect(classifyReadFailure(new FakeApiError(404, 'not_found'))).toBe('not-found');
    expect(classifyReadFailure(new FakeApiError(403, 'project_access_denied'))).toBe('not-found');
    expect(classifyReadFailure(new Error('socket hang up'))).toBe('unavailable');
  });
});
