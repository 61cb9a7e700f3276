import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/ops/index.js';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { freePort } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

/** The names of every object in a JSON text that appear twice in that object (JSON.parse would hide them). */
function duplicateKeys(json: string): string[] {
  const duplicates: string[] = [];
  const stack: Set<string>[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"(\s*:)?|[{}[\]]/g;
  for (let match = pattern.exec(json); match !== null; match = pattern.exec(json)) {
    const token = match[0];
    if (token === '{') stack.push(new Set());
    else if (token === '}') stack.pop();
    else if (match[2] !== undefined) {
      const keys = stack.at(-1);
      const key = match[1] ?? '';
      if (keys?.has(key)) duplicates.push(key);
      keys?.add(key);
    }
  }
  return duplicates;
}

describe('the bot log', () => {
  it('has no duplicate keys in a line, no line twice (listening, scope warnings), and /metrics has process metrics', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const key = sim.issueProjectKey(demoLinkCaption, {
      scopes: ['project:read', 'fundings:read', 'wall:read', 'incentives:read'],
    });
    const config = configOf(
      demoProjectConfig(sim, {
        digest: { enabled: false },
        http: { enabled: true, port: await freePort() },
      }),
      { SOLAR_KIOSK_API_KEY: key },
    );
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      base: { service: 'fundbot', version: 'logs' },
      destination: { write: (line: string) => lines.push(line) },
    });
    const bot = await startBotInTest(config, logger, 'logs', {
      engineOptions: {
        targetIntervalsMs: { fundings: 100, project: 100, wall: 100, blog: 100, incentives: 100 },
      },
    });
    const metricsUrl = `${bot.opsUrl}/metrics`;
    // Wait until the engine itself met the missing scope (its poll of the blog was refused).
    const refusedBlogPoll = /fundbot_polls_total\{[^}]*feed="blog"[^}]*result="forbidden"[^}]*\} [1-9]/;
    const metrics = await waitUntil(
      'a refused poll of the blog',
      async () => {
        const text = await (await fetch(metricsUrl)).text();
        return refusedBlogPoll.test(text) && text;
      },
      { timeoutMs: 15_000, everyMs: 100 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the log:\n${lines.join('')}`);
    });

    for (const line of lines) expect(duplicateKeys(line), line).toEqual([]);
    const messages = lines.map((line) => {
      const { time: _time, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    const repeated = messages.filter((m, i) => messages.indexOf(m) !== i);
    expect(repeated).toEqual([]);
    const msgs = lines.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));
    expect(msgs.filter((m) => m.includes('listening'))).toHaveLength(1);
    expect(msgs.filter((m) => m.includes('lacks blog:read'))).toHaveLength(1);
    expect(metrics).toContain('process_cpu_user_seconds_total');
    expect(metrics).toContain('nodejs_eventloop_lag_seconds');
  }, 30_000);
});
