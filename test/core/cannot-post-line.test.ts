import { describe, expect, it } from 'vitest';
import { createChannelAccessStates } from '../../src/core/settings/channel-access-states.js';
import { HELD_NOTICE_DAYS } from '../../src/domain/held-notices.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { allText, createCoreFixture, discordChannel } from '../support/core-fixture.js';

describe('a channel fundbot cannot post in, as the commands show it', () => {
  it('/subscriptions and /status say since when, why and what to do, in the channel language', async () => {
    const states = createChannelAccessStates(memoryStore());
    const f = createCoreFixture({ deps: { channelAccessStates: states } });
    await f.subscriptions.subscribe(discordChannel, 'solar-kiosk', ['supporters'], 'U');
    await states.markCannotPost(discordChannel, { reason: 'no-permission', missing: ['embed-links'] }, t0);
    const subscriptions = allText(await f.run('subscriptions'));
    expect(subscriptions).toContain('fundbot cannot post here since');
    expect(subscriptions).toContain('give its role Embed Links in this channel');
    expect(subscriptions).toContain(`Notices are held (up to ${HELD_NOTICE_DAYS} days)`);
    expect(allText(await f.run('status'))).toContain('fundbot cannot post here since');

    await f.settings.setLocale(discordChannel, 'channel', 'de');
    expect(allText(await f.run('subscriptions'))).toContain('fundbot kann hier seit');

    await states.markCanPost(discordChannel);
    expect(allText(await f.run('subscriptions'))).not.toContain('cannot post');
  });
});
