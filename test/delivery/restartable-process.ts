/**
 * A platform test's bot, one per test: one "process" at a time over one store that outlives it (`start` stops
 * the running one, closing a file store, and starts a new one: a crash and a restart, nothing in memory
 * survives). The store is in memory, or a real SQLite file in a fresh temporary folder. The first process sets up
 * what the test needs (its channels, their pacing, a daily thread); every process's pipeline records how its
 * doubts were resolved. The fake, the running process and the folder are gone after each test. The
 * daily-thread, correction and exactly-once tests of each platform run their bots in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { type KeyValueStore, memoryStore, openStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { ManualClock } from '../support/manual-clock.js';
import type { PipelineHarness, PipelineOptions } from './pipeline-harness.js';

export interface RestartableProcess<Fake, Bot> {
  readonly fake: Fake;
  readonly clock: ManualClock;
  /** The running process. */
  readonly bot: Bot;
  /** How each doubt was resolved, `<event id>:<outcome>`, in order, across restarts. */
  readonly resolved: readonly string[];
  /** Stops the running process, if any, and starts a new one over the same store. */
  start(): Promise<Bot>;
}

type StartOptions = Omit<PipelineOptions, 'posters' | 'access'> & { readonly clock: ManualClock };

export function restartablePerTest<
  Fake extends { close(): Promise<void> },
  Bot extends PipelineHarness,
>(options: {
  startFake(clock: ManualClock): Promise<Fake>;
  startBot(fake: Fake, options: StartOptions): Promise<Bot>;
  /** What the first process sets up. */
  setUp(first: NoInfer<Bot>): Promise<void>;
  /** Where each test's clock starts (default t0); `Date.now` for the real time at its start. */
  readonly startsAt?: number | (() => number);
  readonly overrides?: PipelineOptions['overrides'];
  /** `sqlite`: a file in a fresh folder, closed and opened again by each restart (default: in memory). */
  readonly store?: 'memory' | 'sqlite';
}): RestartableProcess<Fake, Bot> {
  const resolved: string[] = [];
  let fake: Fake;
  let clock: ManualClock;
  let dir: string | undefined;
  let memory: KeyValueStore | undefined;
  let running: { readonly bot: Bot; readonly store: KeyValueStore } | undefined;

  async function stop(): Promise<void> {
    await running?.bot.stop();
    if (dir !== undefined) await running?.store.close();
    running = undefined;
  }

  /** The SQLite file again, or the one memory store of the test. */
  async function openTheStore(): Promise<KeyValueStore> {
    if (dir !== undefined) return openStore(`sqlite://${join(dir, 'state.sqlite')}`);
    memory ??= memoryStore();
    return memory;
  }

  async function start(): Promise<Bot> {
    await stop();
    const store = await openTheStore();
    const bot = await options.startBot(fake, {
      clock,
      store,
      observer: { doubtResolved: ({ id, outcome }) => resolved.push(`${id}:${outcome}`) },
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
    running = { bot, store };
    return bot;
  }

  beforeEach(async () => {
    resolved.length = 0;
    const { startsAt = t0 } = options;
    clock = new ManualClock(typeof startsAt === 'number' ? startsAt : startsAt());
    memory = undefined;
    if (options.store === 'sqlite') dir = mkdtempSync(join(tmpdir(), 'fundbot-restartable-'));
    fake = await options.startFake(clock);
    await options.setUp(await start());
  });
  afterEach(async () => {
    await stop();
    await fake.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  return {
    get fake() {
      return fake;
    },
    get clock() {
      return clock;
    },
    get bot() {
      if (running === undefined) throw new Error('no process is running: start one first');
      return running.bot;
    },
    resolved,
    start,
  };
}

/** A `setUp` that subscribes `channel` to supporter notices, live, with the daily thread if asked. */
export const liveIn =
  (channel: ChannelRef, options: { readonly dailyThread?: boolean } = {}) =>
  async (first: PipelineHarness): Promise<void> => {
    await first.subscribe(channel, ['supporters']);
    await first.pacing.setKind(channel, 'supporters', { mode: 'live' });
    if (options.dailyThread) await first.dailyThreads.set(channel, true);
  };

/** The goal the daily thread's parent reports progress to. */
export const goalOf20k: PipelineOptions['overrides'] = { goalOf: async () => 20_000 };
