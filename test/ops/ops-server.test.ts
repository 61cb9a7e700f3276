import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createHealthMonitor, type HealthReport } from '../../src/ops/health.js';
import { silentLogger } from '../../src/ops/logger.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { type OpsServer, startOpsServer } from '../../src/ops/ops-server.js';
import { ManualClock } from '../support/manual-clock.js';

const servers: OpsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(health: () => HealthReport | Promise<HealthReport>, registry = new Registry()) {
  const server = await startOpsServer({ host: '127.0.0.1', port: 0, registry, health, logger: silentLogger });
  servers.push(server);
  return server;
}

const healthy: HealthReport = { healthy: true, checks: { store: { ok: true, detail: 'fine' } } };

describe('ops server over real HTTP', () => {
  it('GET /healthz answers 200 with status ok when healthy', async () => {
    const server = await start(() => healthy);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'ok', checks: { store: { ok: true, detail: 'fine' } } });
  });

  it('GET /healthz answers 503 when unhealthy, and when the check throws', async () => {
    const unhealthy = await start(async () => ({
      healthy: false,
      checks: { store: { ok: false, detail: 'SQLITE_BUSY' } },
    }));
    const res = await fetch(`${unhealthy.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unhealthy' });

    const throwing = await start(() => {
      throw new Error('boom');
    });
    const res2 = await fetch(`${throwing.url}/healthz`);
    expect(res2.status).toBe(503);
    expect(await res2.json()).toEqual({
      status: 'unhealthy',
      checks: { health: { ok: false, detail: 'the health check itself failed' } },
    });
  });

  it('GET /metrics serves the injected registry in Prometheus text format', async () => {
    const registry = new Registry();
    const metrics = createMetrics(registry, () => Date.UTC(2026, 0, 1));
    metrics.recordPoll({ project: 'solar-kiosk', feed: 'wall', result: 'ok' }, 120);
    metrics.recordApiResponse({ endpoint: 'wall', status: 200, durationMs: 80 });
    metrics.recordApiResponse({ endpoint: 'wall', status: 0, durationMs: 10_000 });
    metrics.setApiBudget('solar-kiosk', { dayRemaining: 9_876, minuteRemaining: 118 });
    metrics.recordNotice({ kind: 'supporters', platform: 'discord' }, 42_000);
    metrics.recordDeliveryError({ platform: 'slack', reason: 'rate_limited' });
    metrics.recordCommand({ command: 'funding', platform: 'slack', outcome: 'ok' }, 35);
    const server = await start(() => healthy, registry);

    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    for (const line of [
      'fundbot_polls_total{project="solar-kiosk",feed="wall",result="ok"} 1',
      'fundbot_last_successful_poll_timestamp_seconds{project="solar-kiosk",feed="wall"} 1767225600',
      'fundbot_api_requests_total{endpoint="wall",status="200"} 1',
      'fundbot_api_requests_total{endpoint="wall",status="0"} 1',
      'fundbot_api_budget_remaining{project="solar-kiosk",window="day"} 9876',
      'fundbot_api_budget_remaining{project="solar-kiosk",window="minute"} 118',
      'fundbot_notices_total{kind="supporters",platform="discord"} 1',
      'fundbot_notice_latency_seconds_bucket{le="60",kind="supporters"} 1',
      'fundbot_notice_latency_seconds_bucket{le="30",kind="supporters"} 0',
      'fundbot_delivery_errors_total{platform="slack",reason="rate_limited"} 1',
      'fundbot_command_duration_seconds_count{command="funding",platform="slack",outcome="ok"} 1',
    ])
      expect(text).toContain(line);
    // Only what was registered on the injected registry: no default process metrics.
    expect(text).not.toContain('process_cpu');
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const server = await start(() => healthy);
    expect((await fetch(`${server.url}/`)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz/extra`)).status).toBe(404);
    const post = await fetch(`${server.url}/metrics`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('two metric sets on two registries do not collide', () => {
    const a = createMetrics(new Registry());
    const b = createMetrics(new Registry());
    a.recordDeliveryError({ platform: 'discord', reason: 'network' });
    b.recordDeliveryError({ platform: 'discord', reason: 'network' });
    expect(a.handles.deliveryErrors).not.toBe(b.handles.deliveryErrors);
  });
});

describe('health monitor', () => {
  it('turns unhealthy when a project has no successful poll within the stale limit, and when the store fails', () => {
    const clock = new ManualClock();
    const monitor = createHealthMonitor({ clock, projects: ['solar-kiosk'], pollStaleAfterMs: 60_000 });
    expect(monitor.report().healthy).toBe(true);
    clock.advance(61_000);
    expect(monitor.report().checks['poll:solar-kiosk']).toEqual({
      ok: false,
      detail: 'no successful poll yet (61 s since start)',
    });
    monitor.recordPoll({ project: 'solar-kiosk', feed: 'fundings', result: 'ok' });
    clock.advance(30_000);
    expect(monitor.report()).toEqual({
      healthy: true,
      checks: {
        store: { ok: true, detail: 'no store operation yet' },
        'poll:solar-kiosk': { ok: true, detail: 'last successful poll 30 s ago' },
      },
    });
    monitor.recordPoll({ project: 'solar-kiosk', feed: 'fundings', result: 'error' });
    monitor.recordStore(false, 'SQLITE_IOERR');
    expect(monitor.report().healthy).toBe(false);
    monitor.recordStore(true);
    expect(monitor.report().checks.store?.ok).toBe(true);
    expect(monitor.report().healthy).toBe(false); // the only feed still fails
    monitor.recordPoll({ project: 'solar-kiosk', feed: 'fundings', result: 'ok' });
    expect(monitor.report().healthy).toBe(true);
  });
});
