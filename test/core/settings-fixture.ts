import type { CommandCoreDeps } from '../../src/core/index.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { type CoreFixture, createCoreFixture } from '../support/core-fixture.js';

/**
 * The core fixture with one channel setting of its own, kept in a memory store of its own: `create` makes it
 * (createCampaignSettings, createDailyThreadSettings, ...) and the core gets it as its dependency `name`. The tests
 * of a command that changes that setting read it back through `settings`.
 */
export function fixtureWithSetting<Name extends keyof CommandCoreDeps, Setting extends CommandCoreDeps[Name]>(
  name: Name,
  create: (store: KeyValueStore) => Setting,
): { readonly f: CoreFixture; readonly settings: Setting } {
  const settings = create(memoryStore());
  const deps = { [name]: settings } as NonNullable<
    NonNullable<Parameters<typeof createCoreFixture>[0]>['deps']
  >;
  return { f: createCoreFixture({ deps }), settings };
}
