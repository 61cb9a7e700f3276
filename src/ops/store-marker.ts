import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import { GET_MANY_BATCH, type KeyValueStore, slicesOf } from '../lib/store.js';
import type { HealthCheck } from './health.js';
import type { Logger } from './logger.js';

/**
 * A small file beside the store that remembers it held projects' state or subscriptions, so a
 * store that comes back EMPTY (its file deleted, a volume not mounted, a Redis restarted without
 * persistence) is said out loud instead of silently starting afresh (issue 23: after the file was
 * deleted the bot ran with no subscriptions and said nothing).
 *
 * Where: `<file>.marker` beside a SQLite file; for Redis `data/fundbot-redis-<host>-<port>.marker`
 * under the working directory (in the image: the /app/data volume). It is a file, not a key, because
 * a key would vanish with the data it vouches for. A replica without a persistent data directory
 * cannot keep one: then nothing is said (docs/operations).
 */
export interface StoreMarkerOptions {
  readonly storeUrl: string;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Keys whose presence means the store holds something worth keeping: the projects' state heads, their subscriptions. */
  readonly heldKeys: () => readonly { readonly project: string; readonly key: string }[];
  /** Between two checks (default 5 minutes): the marker follows the projects that gain data. */
  readonly intervalMs?: number;
  /** Between two checks while no marker is written yet (default 10 s): a new store is vouched for soon after its first data. */
  readonly untilMarkedMs?: number;
  /** Where the marker is (default from the store URL, see above). */
  readonly path?: string;
}

export interface StoreMarker {
  /** The `/healthz` check (`store-data`): not ok while the store is empty but the marker says it held data. */
  check(): HealthCheck;
  /** The same, for `/status`: the detail while alarmed, else undefined. */
  alarm(): string | undefined;
  /** Stops the checks after one last look (the store must still be open): a short run is vouched for too. */
  stop(): Promise<void>;
}

const markerSchema = z.object({
  note: z.string(),
  store: z.string(),
  projects: z.array(z.string()),
  firstHeldAt: z.string(),
  updatedAt: z.string(),
});
type MarkerFile = z.infer<typeof markerSchema>;

/** The marker's path for a store URL (undefined for the in-memory store, which holds nothing across restarts). */
export function storeMarkerPath(storeUrl: string, cwd = process.cwd()): string | undefined {
  if (storeUrl.startsWith('sqlite://')) return `${storeUrl.slice('sqlite://'.length)}.marker`;
  if (storeUrl.startsWith('redis://') || storeUrl.startsWith('rediss://')) {
    let where = 'redis';
    try {
      const url = new URL(storeUrl);
      where = `${url.hostname}-${url.port || '6379'}${url.pathname.replace(/[^0-9]/g, '') ? `-db${url.pathname.slice(1)}` : ''}`;
    } catch {}
    return join(cwd, 'data', `fundbot-redis-${where.replace(/[^A-Za-z0-9_.-]/g, '_')}.marker`);
  }
  return undefined;
}

function readMarker(path: string): MarkerFile | 'unreadable' | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const parsed = markerSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/**
 * Checks the store against its marker at once and then every `intervalMs`: while the store holds
 * data the marker lists the projects that have some; when the store holds none of them but the
 * marker says it did, it logs an error (once, and again every hour), reports `store-data` failing in
 * `/healthz` and a line in `/status`, and leaves the marker alone until the operator deletes it to
 * accept the fresh start (a restored store is found at the next start). Cost:
 * 2 keys per project read per check in batched reads of GET_MANY_BATCH keys (3,000 projects: 12
 * MGETs on Redis; every 5 minutes, every 10 s until the first marker is written), a file write when the projects holding data change.
 */
export async function startStoreMarker(options: StoreMarkerOptions): Promise<StoreMarker> {
  const path = options.path ?? storeMarkerPath(options.storeUrl);
  const interval = options.intervalMs ?? 300_000;
  const untilMarked = options.untilMarkedMs ?? 10_000;
  const { logger, clock } = options;
  const controller = new AbortController();
  let alarm: string | undefined;
  let alarmLoggedAt = Number.NEGATIVE_INFINITY;

  const heldProjects = async (): Promise<string[]> => {
    // One batched read at a time, each bounded on its own (observedStore): 3,000 projects' 6,000 keys are 12
    // MGETs on Redis, not 6,000 GETs each waiting in the connection's queue (lib/bounded-map.ts says why that
    // failed), nor 6,000 answers for the event loop to take while the replica is taking its share.
    const held = new Set<string>();
    for (const slice of slicesOf(options.heldKeys(), GET_MANY_BATCH)) {
      const values = await options.store.getMany(
        slice.map((k) => k.key),
        z.unknown(),
      );
      for (const [i, { project }] of slice.entries()) if (values[i] !== undefined) held.add(project);
    }
    return [...held].sort();
  };

  const writeMarker = (file: string, projects: string[], previous: MarkerFile | undefined) => {
    const at = new Date(clock.now()).toISOString();
    const marker: MarkerFile = {
      note:
        "fundbot writes this file while the store beside it holds projects' state or subscriptions. If the store " +
        'is ever found empty while this file exists, fundbot reports it (log, /healthz, /status): restore the ' +
        'store from your backup, or delete this file to accept starting afresh.',
      store: options.storeUrl.replace(/\/\/[^@/]*@/, '//'),
      projects,
      firstHeldAt: previous?.firstHeldAt ?? at,
      updatedAt: at,
    };
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed: a crash never leaves half a marker.
    writeFileSync(`${file}.tmp`, `${JSON.stringify(marker, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  };

  // Once alarmed, the alarm lasts until the marker is deleted: the engine's fresh baseline soon fills
  // the store again, which is not the data that was lost (a restored store is seen at the next start).
  const clearIfAccepted = () => {
    if (alarm === undefined || path === undefined || existsSync(path)) return;
    logger.info({ marker: path }, 'the store marker was deleted: starting afresh as asked');
    alarm = undefined;
  };

  const checkOnce = async (): Promise<void> => {
    if (path === undefined) return;
    clearIfAccepted();
    if (alarm !== undefined) {
      if (clock.now() - alarmLoggedAt >= 3_600_000) {
        alarmLoggedAt = clock.now();
        logger.error({ marker: path }, alarm);
      }
      return;
    }
    const marker = readMarker(path);
    const held = await heldProjects();
    if (held.length === 0 && marker !== undefined) {
      const listed = marker === 'unreadable' ? 'projects' : marker.projects.join(', ');
      const since = marker === 'unreadable' ? 'before' : `since ${marker.firstHeldAt}`;
      alarm =
        `the store is empty, but ${path} says it held data (${listed}, ${since}): the store was deleted, ` +
        'replaced or not mounted, so subscriptions and delivery records are gone. Restore the store from your ' +
        `backup and restart fundbot, or delete ${path} to accept starting afresh`;
      alarmLoggedAt = clock.now();
      logger.error({ marker: path }, alarm);
      return;
    }
    if (held.length === 0) return;
    const previous = marker === 'unreadable' ? undefined : marker;
    if (previous !== undefined && held.every((p) => previous.projects.includes(p))) return;
    writeMarker(path, [...new Set([...(previous?.projects ?? []), ...held])].sort(), previous);
  };

  const run = async () => {
    try {
      await checkOnce();
    } catch (error) {
      // A store that does not answer is reported by the store watch; the next check tries again.
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'store marker check failed',
      );
    }
  };
  await run();
  void (async () => {
    for (;;) {
      const marked = path !== undefined && existsSync(path);
      await clock.sleep(marked ? interval : untilMarked, controller.signal).catch(() => undefined);
      if (controller.signal.aborted) return;
      await run();
    }
  })();
  return {
    check: () => {
      clearIfAccepted();
      return alarm === undefined
        ? { ok: true, detail: path === undefined ? 'no marker for an in-memory store' : `marker ${path}` }
        : { ok: false, detail: alarm };
    },
    alarm: () => {
      clearIfAccepted();
      return alarm;
    },
    stop: async () => {
      if (controller.signal.aborted) return;
      controller.abort(new Error('store marker stopped'));
      // A last look before the store closes: a run shorter than the first interval still leaves its marker.
      await run();
    },
  };
}
