import type { ChannelAccessStates } from '../core/index.js';
import { channelKey } from '../domain/channels.js';
import { noteForLog } from '../domain/engine-notes.js';
import type { EngineStatus, ProjectReadModel } from '../domain/read-model.js';
import { mapBounded } from '../lib/bounded-map.js';
import type { Clock } from '../lib/clock.js';
import type { HealthCheck, HealthReport } from '../ops/index.js';

/** A project's shared status is read again for `/healthz` at most this often. */
const REREAD_MS = 30_000;
/**
 * How long `/healthz` waits for a re-read of the shared statuses before it answers with what it read last: the
 * re-read goes on in the background. On a fleet of 3,000 projects under load (bench scaleRedis) the 6,000 reads
 * took 10-18 s, and a /healthz that waited for them missed the orchestrator's probe timeout.
 */
const ANSWER_WITHIN_MS = 500;
/** Projects whose status is read at once (two reads each; lib/bounded-map.ts says why not all 3,000). */
const STATUS_READS_IN_FLIGHT = 32;

/**
 * `/healthz` on replicas (issue 30): one `status:<project>` check per watched project, from the status the
 * polling replica shares in the store (status-board.ts), so every replica's `/healthz` tells the same of every
 * project: who polls it, its last poll, a paused key, feeds switched off; and one `cannot-post` check with every
 * channel of the fleet fundbot cannot post in (their notices held for a catch-up), from the shared access
 * states, where a replica's own `delivery` check knows only the channels its own posts found. Always `ok`: a
 * project's trouble fails the `poll:<project>` check of the replica that polls it, not the others' health.
 *
 * Cost: two store reads per project and one per channel that cannot be posted in (plus the index), at most
 * every 30 s whatever the health check's rate. A /healthz waits at most {@link ANSWER_WITHIN_MS} for them: a
 * status not read yet says so, a re-read still running leaves the last one shown (its time is in the detail).
 */
export function fleetStatusChecks(deps: {
  readonly readModel: Pick<ProjectReadModel, 'status'>;
  readonly projects: () => readonly string[];
  readonly clock: Clock;
  /** The fleet's shared access states (the wiring's own, kept in the shared store). */
  readonly access: Pick<ChannelAccessStates, 'list'>;
}): () => Promise<Record<string, HealthCheck>> {
  const cache = new Map<string, { readonly at: number; readonly detail: string }>();
  const { access, clock } = deps;
  let cannotPost: { readonly at: number; readonly detail: string } | undefined;
  let rereading: Promise<void> | undefined;
  const dueForReread = (project: string, now: number) =>
    now - (cache.get(project)?.at ?? Number.NEGATIVE_INFINITY) >= REREAD_MS;

  const reread = async (projects: readonly string[], now: number): Promise<void> => {
    if (cannotPost === undefined || now - cannotPost.at >= REREAD_MS) {
      const detail = await access.list().then(
        (held) =>
          held.length === 0
            ? 'fundbot can post in every subscribed channel'
            : held
                .map((h) => `${channelKey(h.channel)} (${h.state.reason} since ${iso(h.state.since)})`)
                .join(', '),
        () => "the channels' access states cannot be read now",
      );
      cannotPost = { at: now, detail };
    }
    const due = projects.filter((project) => dueForReread(project, now));
    await mapBounded(due, STATUS_READS_IN_FLIGHT, async (project) => {
      const detail = await deps.readModel.status(project).then(
        (status) => describeStatus(project, status, now),
        () => 'its shared status cannot be read now',
      );
      cache.set(project, { at: now, detail });
    });
  };

  return async () => {
    const now = clock.now();
    const projects = deps.projects();
    const watched = new Set(projects);
    for (const project of cache.keys()) if (!watched.has(project)) cache.delete(project);
    const stale =
      cannotPost === undefined ||
      now - cannotPost.at >= REREAD_MS ||
      projects.some((project) => dueForReread(project, now));
    if (stale && rereading === undefined) {
      rereading = reread(projects, now).finally(() => {
        rereading = undefined;
      });
    }
    if (rereading !== undefined) {
      const answerBy = new AbortController();
      await Promise.race([rereading, clock.sleep(ANSWER_WITHIN_MS, answerBy.signal).catch(() => undefined)]);
      answerBy.abort();
    }
    const checks: Record<string, HealthCheck> = {
      'cannot-post': { ok: true, detail: cannotPost?.detail ?? "the channels' access states are being read" },
    };
    for (const project of projects) {
      const cached = cache.get(project);
      checks[`status:${project}`] = {
        ok: true,
        detail:
          cached?.detail ?? 'its shared status is being read (this replica reads it at most every 30 s)',
      };
    }
    return checks;
  };
}

/** An instant as every replica writes it (a duration would differ by when each was asked). */
const iso = (at: number) => new Date(at).toISOString();

/** The shared status in the operator's English, in absolute times: the same text on every replica. */
export function describeStatus(project: string, status: EngineStatus, now: number): string {
  if (status.paused !== null) {
    return `polling paused since ${iso(status.paused.since)}: ${noteForLog(status.paused.reason, project)}`;
  }
  const last = Math.max(0, ...status.feeds.map((f) => f.lastSuccessAt ?? 0));
  const window = status.reportedEveryMs;
  const parts = [
    last === 0
      ? 'not polled yet'
      : window !== undefined && now - last < window
        ? `last successful poll within the last ${Math.round(window / 60_000)} minutes`
        : `last successful poll at ${iso(last)}`,
  ];
  const off = status.feeds.flatMap((f) =>
    f.disabledReason !== undefined ? [noteForLog(f.disabledReason, project)] : [],
  );
  if (off.length > 0) parts.push(off.join('; '));
  return parts.join('; ');
}

/** `/healthz`: this process's report, and on replicas every project's shared status beside it. */
export function healthWithFleet(
  report: () => HealthReport,
  fleet: Parameters<typeof fleetStatusChecks>[0] | undefined,
): () => HealthReport | Promise<HealthReport> {
  if (fleet === undefined) return report;
  const statusChecks = fleetStatusChecks(fleet);
  return async () => {
    const own = report();
    return { healthy: own.healthy, checks: { ...own.checks, ...(await statusChecks()) } };
  };
}
