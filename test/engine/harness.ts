import { afterEach, describe, onTestFinished } from 'vitest';
import {
  type ApiClient,
  type ApiClientOptions,
  createApiClient,
  type ProjectKey,
  parseProjectKey,
} from '../../src/api/index.js';
import { fundingKey } from '../../src/api/stable-keys.js';
import type { CommandContext, OptionValue } from '../../src/core/command-core.js';
import { createCommandCore, createSettingsStore, createSubscriptionStore } from '../../src/core/index.js';
import type { FundbotEvent } from '../../src/domain/events.js';
import type { Logger } from '../../src/domain/logger.js';
import {
  type CreateEngineOptions,
  createEngine,
  type Engine,
  type EngineOptions,
} from '../../src/engine/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import {
  type ListOrder,
  type ProjectScope,
  type ProjectSeed,
  projectScopes,
  type SimProject,
  type Simulator,
  startSimulator,
} from '../../src/simulator/index.js';
import { allText, buildContext } from '../support/core-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { type RecordedLog, recordingLogger } from '../support/recording-logger.js';

/** 2026-03-02 10:00:30 UTC. */
export const t0 = Date.UTC(2026, 2, 2, 10, 0, 30);
export const lc = 'solar-kiosk';

/** Every engine rule is checked with both list orders: the spec does not say which one the API uses. */
export const listOrders: readonly ListOrder[] = ['newest-first', 'oldest-first'];

/** `n` supporters who arrived one a minute before t0. */
export const initialSupporters = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ at: t0 - (n - i) * 60_000, amount: 1 }));

export function seed(overrides: Partial<ProjectSeed> = {}): ProjectSeed {
  return {
    linkCaption: lc,
    title: 'Solar kiosk',
    currency: 'EUR',
    fundingThreshold: 1000,
    allOrNothing: true,
    ownerId: 7,
    status: 'active',
    ...overrides,
  };
}

/** Records what the engine delivered; optionally fails on demand. */
export class RecordingDeliver {
  readonly events: FundbotEvent[] = [];
  failNext = 0;
  readonly deliver = async (event: FundbotEvent): Promise<void> => {
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('chat platform unavailable');
    }
    this.events.push(event);
  };
  ofType<T extends FundbotEvent['type']>(type: T): Extract<FundbotEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<FundbotEvent, { type: T }> => e.type === type);
  }
  clear(): void {
    this.events.length = 0;
  }
}

/** The shared recording logger, plus the warn and error messages as plain strings. */
export interface RecordingLogger extends Logger {
  readonly records: RecordedLog[];
  /** Messages of the warn and error records, in order. */
  readonly warnings: readonly string[];
}

function engineLogger(): RecordingLogger {
  const base = recordingLogger();
  // A live view: the getter reads the records at each access.
  return Object.defineProperty(base, 'warnings', {
    get: () => base.records.filter((r) => r.level === 'warn' || r.level === 'error').map((r) => r.msg ?? ''),
  }) as RecordingLogger;
}

export interface EngineHarness {
  readonly sim: Simulator;
  readonly clock: ManualClock;
  readonly api: ApiClient;
  readonly store: KeyValueStore;
  readonly project: SimProject;
  readonly key: ProjectKey;
  /** The key as issued, for the simulator's controls (revokeKey, restoreKey, setKeyScopes). */
  readonly rawKey: string;
  readonly recorder: RecordingDeliver;
  readonly logger: RecordingLogger;
  engine: Engine;
  /** A new engine on the same store, API and clock (a restart). */
  newEngine(overrides?: Partial<CreateEngineOptions>): Engine;
  close(): Promise<void>;
}

export interface EngineHarnessOptions {
  listOrder?: ListOrder;
  project?: Partial<ProjectSeed>;
  scopes?: readonly ProjectScope[];
  store?: KeyValueStore;
  engine?: EngineOptions;
  limits?: { perMinute: number; perDay: number };
  /** The per-IP limits of requests without a credential. */
  publicLimits?: { perMinute: number; perDay: number };
}

/**
 * For a test file: registers an afterEach that closes the harness the test started, and returns the function that
 * starts it (`const startHarness = useEngineHarness();` at the top, `const h = await startHarness({...})` in a test).
 */
export function useEngineHarness(): (options?: EngineHarnessOptions) => Promise<EngineHarness> {
  let started: EngineHarness | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
  });
  return async (options) => {
    started = await startEngineHarness(options);
    return started;
  };
}

/**
 * `title` described once per list order (the spec does not say which one the API uses): `body` gets the start of
 * harnesses that read the lists in that order, each closed after its test.
 */
export function describeEachListOrder(
  title: string,
  body: (startInOrder: (options?: EngineHarnessOptions) => Promise<EngineHarness>) => void,
): void {
  describe.each(listOrders)(`${title} (%s)`, (listOrder) => {
    const start = useEngineHarness();
    body((options = {}) => start({ ...options, listOrder }));
  });
}

export async function startEngineHarness(options: EngineHarnessOptions = {}): Promise<EngineHarness> {
  const clock = new ManualClock(t0);
  const sim = await startSimulator({
    clock,
    seed: 7,
    listOrder: options.listOrder ?? 'newest-first',
    projects: [seed(options.project)],
    limits: {
      ...(options.limits ? { pro: options.limits } : {}),
      ...(options.publicLimits ? { public: options.publicLimits } : {}),
    },
  });
  const rawKey = sim.issueProjectKey(lc, { scopes: options.scopes ?? projectScopes, plan: 'pro' });
  const key = parseProjectKey(rawKey);
  // The engine schedules retries itself: the client must neither sleep on 429 nor retry 5xx on a manual clock.
  const api = createApiClient({
    baseUrl: sim.url,
    clock,
    random: seededRandom(3),
    maxRetries: 0,
    maxRateLimitRetries: 0,
  });
  const store = options.store ?? memoryStore();
  const recorder = new RecordingDeliver();
  const logger = engineLogger();
  const newEngine = (overrides: Partial<CreateEngineOptions> = {}) =>
    createEngine({
      api,
      store,
      clock,
      random: seededRandom(5),
      logger,
      projects: [{ linkCaption: lc, key }],
      deliver: recorder.deliver,
      ...(options.engine ? { options: options.engine } : {}),
      ...overrides,
    });
  const harness: EngineHarness = {
    sim,
    clock,
    api,
    store,
    project: sim.project(lc),
    key,
    rawKey,
    recorder,
    logger,
    engine: newEngine(),
    newEngine,
    async close() {
      await harness.engine.stop();
      await api.close();
      await sim.close();
      await store.close();
    },
  };
  return harness;
}

/** One scheduler step on the virtual clock: jump to the next due time and run what is due. */
export async function step(h: EngineHarness, engine: Engine = h.engine): Promise<void> {
  h.clock.set(engine.nextDueAt());
  await engine.runDue();
}

/** Runs scheduler steps until `ms` of virtual time have passed. */
export async function runFor(h: EngineHarness, ms: number, engine: Engine = h.engine): Promise<void> {
  const until = h.clock.now() + ms;
  while (engine.nextDueAt() <= until) await step(h, engine);
  h.clock.set(until);
}

/** Requests to a list path suffix since `from` (index into the request log). */
export function requestsTo(sim: Simulator, suffix: string, from = 0): number {
  return sim.requests.slice(from).filter((r) => r.path.endsWith(suffix)).length;
}

/** Keys of every public supporter the engine announced, individually or coalesced. */
export function announcedSupporterKeys(events: readonly FundbotEvent[]): string[] {
  return events.flatMap((e) =>
    e.type === 'supporter'
      ? [e.entryKey ?? '']
      : e.type === 'supporter-burst'
        ? [...(e.entryKeys ?? [])]
        : [],
  );
}

export function fundingKeyOf(k: { supportTimestamp: number; userId: number }): string {
  return fundingKey({ support_timestamp: k.supportTimestamp, user: { id: k.userId, display_name: '' } });
}

/** The wall feed's line of the project's /status (its `disabledReason` says whether it is switched off). */
export async function wallStatus(h: EngineHarness) {
  return (await h.engine.readModel.status(lc)).feeds.find((f) => f.feed === 'wall');
}

/**
 * A simulator with `projects`, each read with its own fresh Pro key, and an engine polling them all on `clock`
 * (nothing delivered), both stopped when the test ends; `api` and `engine` add to the client's and the engine's
 * options. For the tests of rules between projects; one project's rules run on the harness above.
 */
export async function startProjectsEngine(options: {
  readonly clock: ManualClock;
  readonly projects: readonly ProjectSeed[];
  readonly api?: Partial<ApiClientOptions>;
  readonly engine?: Partial<CreateEngineOptions>;
}): Promise<{ readonly sim: Simulator; readonly api: ApiClient; readonly engine: Engine }> {
  const { clock } = options;
  const sim = await startSimulator({ clock, seed: 1, projects: [...options.projects] });
  let engine: Engine | undefined;
  onTestFinished(async () => {
    await engine?.stop();
    await sim.close();
  });
  const api = createApiClient({ baseUrl: sim.url, clock, ...options.api });
  engine = createEngine({
    api,
    store: memoryStore(),
    clock,
    random: seededRandom(1),
    projects: options.projects.map(({ linkCaption }) => ({
      linkCaption,
      key: parseProjectKey(sim.issueProjectKey(linkCaption, { plan: 'pro' })),
    })),
    deliver: async () => {},
    ...options.engine,
  });
  return { sim, api, engine };
}

/**
 * The real command core over the harness's engine (its subscriptions and settings in one memory store), and
 * `ask`, which runs a command in a channel (`context` as buildContext takes it) and answers the text it shows.
 */
export function commandCoreOver(harness: Pick<EngineHarness, 'engine' | 'clock'>) {
  const store = memoryStore();
  const settings = createSettingsStore(store);
  const core = createCommandCore({
    readModel: harness.engine.readModel,
    subscriptions: createSubscriptionStore(store, { clock: harness.clock }),
    settings,
    clock: harness.clock,
    version: '0.1.0-test',
  });
  const ask = async (
    name: string,
    options: Readonly<Record<string, OptionValue>> = {},
    context: Partial<CommandContext> = {},
  ): Promise<string> => allText(await core.execute({ name, options, context: buildContext(context) }));
  return { core, settings, ask };
}
