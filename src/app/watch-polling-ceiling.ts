import { Gauge, type Registry } from 'prom-client';
import type { OperationalNote } from '../core/index.js';
import type { ProcessCeiling } from '../engine/index.js';
import type { Clock } from '../lib/clock.js';
import type { HealthCheck, Logger } from '../ops/index.js';

export interface PollingCeilingWatchOptions {
  /** The engine's ceiling (bound late: the engine is wired after health and the metrics). */
  readonly ceiling: () => ProcessCeiling | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Gets `fundbot_polling_ceiling_*` (read at each scrape). */
  readonly registry?: Registry;
  /** How often the log line's state is checked (default 15 s). */
  readonly everyMs?: number;
  /** How long the ceiling must bind (or stop binding) before the log says so (default 60 s: no flapping). */
  readonly holdMs?: number;
}

export interface PollingCeilingWatch {
  /**
   * The `/healthz` check `polling-ceiling` (none before the engine runs): always ok (the process works, only
   * slower than its keys allow); the detail says which sets the pace.
   */
  checks(): Readonly<Record<string, HealthCheck>>;
  /** The `/status` note while the ceiling sets the pace (none otherwise). */
  notes(): readonly OperationalNote[];
  stop(): void;
}

const whatToDo =
  'add a replica (a redis:// store.url, README "Replicas") so each process polls fewer projects, or raise engine.maxRequestsPerSecond if this machine has a core to spare';

/** The ceiling in words: where its figure comes from. */
function ceilingSource(c: ProcessCeiling): string {
  return c.source === 'configured'
    ? 'engine.maxRequestsPerSecond'
    : "engine.maxRequestsPerSecond unset: sized from the keys' plans and half a core's CPU";
}

/** One sentence for the log, `/healthz` and `/status` alike: the figures, what slows, what to do. */
export function ceilingBindsText(c: ProcessCeiling): string {
  return `the process-wide polling ceiling sets the pace, not the keys: their plans would poll ${c.keysPerSecond} requests a second for ${c.keys} key(s), this process polls at most ${c.perSecond} (${ceilingSource(c)}), so every project's feeds are read more slowly than its plan allows: ${whatToDo}`;
}

/**
 * Says out loud when the process ceiling, not the keys' budgets, sets the polling pace (issue 33): a metric
 * at every scrape, a `/healthz` detail and a `/status` line while it does, and one `warn` log line once it
 * has done so for `holdMs` (one `info` line when it stopped for as long).
 */
export function watchPollingCeiling(options: PollingCeilingWatchOptions): PollingCeilingWatch {
  const { clock, logger } = options;
  const registers = options.registry ? [options.registry] : [];
  const holdMs = options.holdMs ?? 60_000;
  const read = () => options.ceiling();
  new Gauge({
    name: 'fundbot_polling_ceiling_requests_per_second',
    help: 'The process-wide polling ceiling (engine.maxRequestsPerSecond, or sized from the keys and the CPU).',
    registers,
    collect() {
      const c = read();
      if (c) this.set(c.perSecond);
    },
  });
  new Gauge({
    name: 'fundbot_polling_keys_requests_per_second',
    help: "What the keys polled here would spend a second by their own budgets (their plans' pace).",
    registers,
    collect() {
      const c = read();
      if (c) this.set(c.keysPerSecond);
    },
  });
  new Gauge({
    name: 'fundbot_polling_ceiling_binds',
    help: 'The ceiling, not the keys, sets the polling pace (1): add a replica.',
    registers,
    collect() {
      const c = read();
      if (c) this.set(c.binds ? 1 : 0);
    },
  });
  // The log's view: what was last said, and since when the ceiling has been in the other state.
  let said = false;
  let changedAt: number | undefined;
  const controller = new AbortController();
  const observe = () => {
    const c = read();
    if (c === undefined) return;
    const now = clock.now();
    if (c.binds === said) {
      changedAt = undefined;
      return;
    }
    changedAt ??= now;
    if (now - changedAt < holdMs) return;
    said = c.binds;
    changedAt = undefined;
    const figures = { ceilingPerSecond: c.perSecond, keysPerSecond: c.keysPerSecond, keys: c.keys };
    if (said) logger.warn(figures, ceilingBindsText(c));
    else logger.info(figures, "the polling ceiling no longer sets the pace: the keys' plans do");
  };
  void (async () => {
    while (!controller.signal.aborted) {
      observe();
      await clock.sleep(options.everyMs ?? 15_000, controller.signal).catch(() => undefined);
    }
  })();
  return {
    checks() {
      const c = read();
      if (c === undefined) return {};
      const detail = c.binds
        ? ceilingBindsText(c)
        : `the keys set the pace: their plans poll ${c.keysPerSecond} requests a second for ${c.keys} key(s), under this process's ceiling of ${c.perSecond} (${ceilingSource(c)})`;
      return { 'polling-ceiling': { ok: true, detail } };
    },
    notes() {
      const c = read();
      if (!c?.binds) return [];
      const detail = `its keys' plans ${c.keysPerSecond} requests a second, its ceiling ${c.perSecond}`;
      return [{ cause: 'polling-ceiling', detail }];
    },
    stop() {
      controller.abort(new Error('polling ceiling watch stopped'));
    },
  };
}
