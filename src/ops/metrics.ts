import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { NoticeKind } from '../domain/events.js';

/** Feeds the engine polls. */
export type PolledFeed = 'project' | 'fundings' | 'wall' | 'blog' | 'incentives' | 'openapi';
/** Outcome of one poll of one feed. */
export type PollResult = 'ok' | 'error' | 'rate_limited' | 'forbidden' | 'skipped';
export type Platform = 'discord' | 'slack' | 'console';

/**
 * What fundbot's modules report. An interface, so the engine, the adapters and
 * the API hook depend on these few methods and not on prom-client; tests pass
 * {@link noopMetrics} or a recording fake.
 */
export interface FundbotMetrics {
  /** One poll of one feed finished. */
  recordPoll(labels: { project: string; feed: PolledFeed; result: PollResult }, durationMs?: number): void;
  /**
   * One API attempt. Shaped to be passed straight to `createApiClient({ onResponse })`:
   * `endpoint` is the endpoint family (`wall`, `fundings`…), status 0 = no response.
   */
  recordApiResponse(info: { endpoint: string; status: number; durationMs: number }): void;
  /** Latest rate-limit budget of a project's key (from the client's `budget(key)`). */
  setApiBudget(project: string, budget: { dayRemaining: number; minuteRemaining: number }): void;
  /** A notice was delivered; latency = detectedAt - occurredAt of its event. */
  recordNotice(labels: { kind: NoticeKind; platform: Platform }, latencyMs: number): void;
  /** A delivery failed (`reason`: a short code such as `rate_limited`, `forbidden`, `network`). */
  recordDeliveryError(labels: { platform: Platform; reason: string }): void;
  /** A store operation of the delivery pipeline (its cost per notice: reads and writes). */
  recordDeliveryStoreOperation(operation: 'read' | 'write' | 'delete'): void;
  /** A slash command was handled. */
  recordCommand(
    labels: { command: string; platform: Platform; outcome: 'ok' | 'refused' | 'error' },
    durationMs: number,
  ): void;
}

/** Projects with their own `project` label on the per-project series (the rest are aggregated). */
export const DEFAULT_MAX_PROJECT_SERIES = 100;
/** The `project` label of the polls of every project past the cap. */
export const OTHER_PROJECTS = '_other';

/** The prom-client objects behind {@link FundbotMetrics}, for tests and custom dashboards. */
export interface MetricHandles {
  readonly polls: Counter<'project' | 'feed' | 'result'>;
  readonly pollDuration: Histogram<'feed'>;
  readonly lastSuccessfulPoll: Gauge<'project' | 'feed'>;
  readonly apiRequests: Counter<'endpoint' | 'status'>;
  readonly apiRequestDuration: Histogram<'endpoint'>;
  readonly apiBudgetRemaining: Gauge<'project' | 'window'>;
  readonly notices: Counter<'kind' | 'platform'>;
  readonly noticeLatency: Histogram<'kind'>;
  readonly deliveryErrors: Counter<'platform' | 'reason'>;
  readonly deliveryStoreOperations: Counter<'operation'>;
  readonly commandDuration: Histogram<'command' | 'platform' | 'outcome'>;
}

export interface CreatedMetrics extends FundbotMetrics {
  readonly handles: MetricHandles;
}

/**
 * Registers fundbot's metrics on `registry` (never prom-client's global one, so
 * tests and several bot instances in one process do not collide) and returns
 * typed recording methods. Names follow Prometheus conventions (`_total`,
 * `_seconds`). Label values stay low-cardinality: configured projects, endpoint
 * families, notice kinds, platforms, command names.
 *
 * Process metrics (CPU, memory, event loop) are registered beside these by the composition root
 * (start-bot.ts: `collectDefaultMetrics({ register: registry })`).
 */
export function createMetrics(
  registry: Registry,
  now: () => number = Date.now,
  options: { readonly maxProjectSeries?: number } = {},
): CreatedMetrics {
  const registers = [registry];
  // Per-project series are capped so /metrics stays small at thousands of projects
  // (5 feeds x 5 results per project would be 100,000 series at 4,000): the first
  // projects seen keep their own label, the others share OTHER_PROJECTS. Health
  // (/healthz) still reports every project.
  const maxProjectSeries = options.maxProjectSeries ?? DEFAULT_MAX_PROJECT_SERIES;
  const labelled = new Set<string>();
  const projectLabel = (project: string): string | undefined => {
    if (labelled.has(project)) return project;
    if (labelled.size < maxProjectSeries) {
      labelled.add(project);
      return project;
    }
    return undefined;
  };
  const handles: MetricHandles = {
    polls: new Counter({
      name: 'fundbot_polls_total',
      help: 'Polls of one feed of one project, by result.',
      labelNames: ['project', 'feed', 'result'] as const,
      registers,
    }),
    pollDuration: new Histogram({
      name: 'fundbot_poll_duration_seconds',
      help: 'Duration of one poll of one feed (all pages).',
      labelNames: ['feed'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    lastSuccessfulPoll: new Gauge({
      name: 'fundbot_last_successful_poll_timestamp_seconds',
      help: 'UNIX time of the last successful poll of a feed: alert when it falls behind.',
      labelNames: ['project', 'feed'] as const,
      registers,
    }),
    apiRequests: new Counter({
      name: 'fundbot_api_requests_total',
      help: 'Attempts at the platform API by endpoint family and HTTP status (0 = no response).',
      labelNames: ['endpoint', 'status'] as const,
      registers,
    }),
    apiRequestDuration: new Histogram({
      name: 'fundbot_api_request_duration_seconds',
      help: 'Duration of one API attempt.',
      labelNames: ['endpoint'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    apiBudgetRemaining: new Gauge({
      name: 'fundbot_api_budget_remaining',
      help: 'Requests left in the current rate-limit window of a project key (window: day or minute).',
      labelNames: ['project', 'window'] as const,
      registers,
    }),
    notices: new Counter({
      name: 'fundbot_notices_total',
      help: 'Notices delivered to channels, by kind and platform.',
      labelNames: ['kind', 'platform'] as const,
      registers,
    }),
    noticeLatency: new Histogram({
      name: 'fundbot_notice_latency_seconds',
      help: 'Time from when something happened on the platform to when its notice was posted.',
      labelNames: ['kind'] as const,
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 21_600],
      registers,
    }),
    deliveryErrors: new Counter({
      name: 'fundbot_delivery_errors_total',
      help: 'Failed deliveries of notices, by platform and reason.',
      labelNames: ['platform', 'reason'] as const,
      registers,
    }),
    deliveryStoreOperations: new Counter({
      name: 'fundbot_delivery_store_operations_total',
      help: 'Store operations of the delivery pipeline (records, batches, settings), by operation: its cost per notice.',
      labelNames: ['operation'] as const,
      registers,
    }),
    commandDuration: new Histogram({
      name: 'fundbot_command_duration_seconds',
      help: 'Time to handle a slash command, by command, platform and outcome.',
      labelNames: ['command', 'platform', 'outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
  };

  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  return {
    handles,
    recordPoll({ project, feed, result }, durationMs) {
      const label = projectLabel(project);
      handles.polls.inc({ project: label ?? OTHER_PROJECTS, feed, result });
      if (durationMs !== undefined) handles.pollDuration.observe({ feed }, seconds(durationMs));
      // A last-success time shared by many projects would hide a stalled one: only labelled projects get one.
      if (result === 'ok' && label !== undefined)
        handles.lastSuccessfulPoll.set({ project: label, feed }, Math.floor(now() / 1000));
    },
    recordApiResponse({ endpoint, status, durationMs }) {
      handles.apiRequests.inc({ endpoint, status: String(status) });
      handles.apiRequestDuration.observe({ endpoint }, seconds(durationMs));
    },
    setApiBudget(project, { dayRemaining, minuteRemaining }) {
      const label = projectLabel(project);
      if (label === undefined) return;
      handles.apiBudgetRemaining.set({ project: label, window: 'day' }, dayRemaining);
      handles.apiBudgetRemaining.set({ project: label, window: 'minute' }, minuteRemaining);
    },
    recordNotice({ kind, platform }, latencyMs) {
      handles.notices.inc({ kind, platform });
      handles.noticeLatency.observe({ kind }, seconds(latencyMs));
    },
    recordDeliveryError({ platform, reason }) {
      handles.deliveryErrors.inc({ platform, reason });
    },
    recordDeliveryStoreOperation(operation) {
      handles.deliveryStoreOperations.inc({ operation });
    },
    recordCommand({ command, platform, outcome }, durationMs) {
      handles.commandDuration.observe({ command, platform, outcome }, seconds(durationMs));
    },
  };
}

const noop = () => {};

/** Metrics that record nothing: for tests and the demo without an ops server. */
export const noopMetrics: FundbotMetrics = {
  recordPoll: noop,
  recordApiResponse: noop,
  setApiBudget: noop,
  recordNotice: noop,
  recordDeliveryError: noop,
  recordDeliveryStoreOperation: noop,
  recordCommand: noop,
};
