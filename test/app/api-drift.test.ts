import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { watchApiDrift } from '../../src/app/watch-api-drift.js';
import { memoryStore } from '../../src/lib/store.js';
import { recordingLogger } from '../slack/helpers.js';
import { ManualClock } from '../support/manual-clock.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const day = 24 * 60 * 60_000;

function spec(blogLimitDefault: number, withProcessStatus: boolean) {
  return {
    openapi: '3.0.3',
    paths: {
      '/project/{link_caption}': {
        get: {
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      project: {
                        type: 'object',
                        properties: {
                          id: { type: 'integer' },
                          ...(withProcessStatus ? { process_status: { type: 'string' } } : {}),
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      '/project/{link_caption}/blog': {
        get: {
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', default: blogLimitDefault } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };
}

describe('API drift watch', () => {
  it('fetches /openapi.json at start and once a day, and reports a change in the log, the metrics and /status', async () => {
    let doc = spec(20, true);
    const requests: string[] = [];
    server = createServer((req, res) => {
      requests.push(`${req.url} ${req.headers.authorization ?? 'no credential'}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
    const api = createApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      clock,
      maxRetries: 0,
    });
    const logger = recordingLogger();
    const registry = new Registry();
    const watch = watchApiDrift({ api, store: memoryStore(), clock, logger, registry });
    try {
      // vitest's default 1 s is short for an HTTP round trip on a loaded machine.
      await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1), { timeout: 10_000 });
      expect(requests).toEqual(['/openapi.json no credential']);
      expect(watch.statusLine()).toBeUndefined();

      doc = spec(10, false);
      clock.advance(day - 1);
      expect(requests).toHaveLength(1); // not before a day has passed
      clock.advance(1);
      await vi.waitFor(() => expect(logger.records.some((r) => r.level === 'warn')).toBe(true), {
        timeout: 10_000,
      });
      expect(requests).toHaveLength(2);
      const warning = logger.records.find((r) => r.level === 'warn');
      expect(warning?.msg).toContain("the platform's API description (/openapi.json) changed:");
      expect(warning?.msg).toContain(
        'removed response field GET /project/{link_caption} project.process_status',
      );
      expect(warning?.msg).toContain(
        'parameter GET /project/{link_caption}/blog query limit: default: 20 → 10',
      );
      expect(await registry.metrics()).toMatch(/fundbot_api_drift_changes 2/);
      expect(await registry.metrics()).toMatch(/fundbot_api_drift_checks_total\{result="changed"\} 1/);
      expect(watch.statusLine()).toBe(
        'the API description changed on 2026-11-24: 2 changes (removed response field GET /project/{link_caption} project.process_status; parameter GET /project/{link_caption}/blog query limit: default: 20 → 10)',
      );
    } finally {
      watch.stop();
      await api.close();
    }
  });
});
