import type { CommandContext, CommandCore, OptionValue } from '../../src/core/command-core.js';
import type { CommandCoreDeps } from '../../src/core/command-core-deps.js';
import { createCommandCore } from '../../src/core/create-command-core.js';
import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelRef, SubscriptionStore } from '../../src/core/ports.js';
import { createPacingSettings } from '../../src/core/settings/pacing-settings.js';
import { createSettingsStore, type SettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { buildProject, t0 } from './builders.js';
import { type FakeProjectFixture, FakeReadModel } from './fake-read-model.js';
import { ManualClock } from './manual-clock.js';

export const discordChannel: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'C1' };

export function buildContext(overrides: Partial<CommandContext> = {}): CommandContext {
  return {
    user: { id: 'U1', displayName: 'Alice' },
    channel: discordChannel,
    canAdminister: false,
    ...overrides,
  };
}

/** A command core on fakes and an in-memory store, with a ManualClock at {@link t0}. */
export interface CoreFixture {
  readonly core: CommandCore;
  readonly clock: ManualClock;
  readonly readModel: FakeReadModel;
  readonly store: KeyValueStore;
  readonly subscriptions: SubscriptionStore;
  readonly settings: SettingsStore;
  /** Runs a command with options and context overrides. */
  run(
    name: string,
    options?: Record<string, OptionValue | undefined>,
    context?: Partial<CommandContext>,
  ): Promise<NeutralMessage>;
}

export function createCoreFixture(
  options: {
    projects?: readonly FakeProjectFixture[];
    deps?: Partial<Omit<CommandCoreDeps, 'readModel' | 'subscriptions' | 'settings' | 'clock'>>;
  } = {},
): CoreFixture {
  const clock = new ManualClock(t0);
  const readModel = new FakeReadModel({ clock, projects: options.projects ?? [{ project: buildProject() }] });
  const store = memoryStore();
  const subscriptions = createSubscriptionStore(store, { clock });
  const settings = createSettingsStore(store);
  const core = createCommandCore({
    readModel,
    subscriptions,
    settings,
    clock,
    version: '0.1.0-test',
    pacing: createPacingSettings(store),
    ...options.deps,
  });
  return {
    core,
    clock,
    readModel,
    store,
    subscriptions,
    settings,
    run: (name, opts = {}, context = {}) =>
      core.execute({ name, options: opts, context: buildContext(context) }),
  };
}

/**
 * All the visible text of a message in one string, for "contains"/"never contains"
 * checks. Intl's no-break spaces (in "12.345 €", "CHF 20") become plain spaces so
 * expectations can be typed normally.
 */
export function allText(message: NeutralMessage): string {
  return [
    message.title,
    message.text,
    message.badge,
    message.footer,
    ...(message.fields ?? []).flatMap((f) => [f.name, f.value, ...(f.items ?? [])]),
    ...(message.links ?? []).map((l) => l.label),
  ]
    .filter((s) => s !== undefined)
    .join('\n')
    .replace(/[\u00a0\u202f]/g, ' ');
}

/** Every URL a message would link to. */
export function allUrls(message: NeutralMessage): string[] {
  return [
    message.titleUrl,
    ...(message.links ?? []).map((l) => l.url),
    message.image?.kind === 'url' ? message.image.url : undefined,
  ].filter((u): u is string => u !== undefined);
}
