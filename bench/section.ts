import type { ApiClient, ProjectKey } from '../src/api/index.js';
import type { FundbotEvent } from '../src/domain/events.js';
import type { Engine } from '../src/engine/index.js';
import type { KeyValueStore } from '../src/lib/store.js';
import type { Simulator } from '../src/simulator/index.js';
import type { ManualClock } from '../test/support/manual-clock.js';

/** Figures a section adds to the final JSON line (and the printed table). */
export type Figures = Record<string, unknown>;

/** The running campaign day, as sections see it. */
export interface CampaignContext {
  readonly sim: Simulator;
  readonly clock: ManualClock;
  readonly api: ApiClient;
  readonly engine: Engine;
  readonly linkCaption: string;
  readonly key: ProjectKey;
  /** Epoch ms of the first and last moment of the simulated day. */
  readonly start: number;
  readonly end: number;
  /** Keys of the supporters and wall posts the engine's first read (the baseline) saw: not news. */
  readonly inBaseline: ReadonlySet<string>;
}

/**
 * One part of `npm run bench`. A section can ride along the simulated campaign
 * day (`campaign` hooks: setup before it, tick after every engine step, figures
 * at the end) and/or run on its own (`run`). Another part of fundbot adds its
 * figures (e.g. the /funding command's latency) by adding a section to
 * bench/sections.ts, without touching the runner.
 */
export interface BenchSection {
  readonly name: string;
  readonly campaign?: {
    /** Wraps the engine's store before the day starts (to record what is written). */
    wrapStore?(store: KeyValueStore): KeyValueStore;
    setup?(ctx: CampaignContext): Promise<void> | void;
    tick?(ctx: CampaignContext): Promise<void> | void;
    /** Every event the engine delivers, as it delivers it (inside the engine step, on the same clock). */
    delivered?(event: FundbotEvent, ctx: CampaignContext): Promise<void> | void;
    figures?(ctx: CampaignContext): Promise<Figures> | Figures;
  };
  run?(): Promise<Figures>;
}
