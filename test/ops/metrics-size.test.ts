import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics, OTHER_PROJECTS } from '../../src/ops/metrics.js';

describe('/metrics at thousands of projects', () => {
  it('stays small: per-project series are capped, the rest aggregated, no poll lost from the totals', async () => {
    const registry = new Registry();
    const metrics = createMetrics(registry, () => Date.UTC(2026, 0, 1), { maxProjectSeries: 100 });
    const feeds = ['project', 'fundings', 'wall', 'blog', 'incentives'] as const;
    for (let p = 0; p < 4_000; p++) {
      for (const feed of feeds) {
        metrics.recordPoll({ project: `project-${p}`, feed, result: 'ok' }, 50);
        metrics.recordPoll({ project: `project-${p}`, feed, result: 'error' }, 50);
      }
      metrics.setApiBudget(`project-${p}`, { dayRemaining: 9_000, minuteRemaining: 100 });
    }
    const text = await registry.metrics();
    // 4,000 projects with their own series were megabytes; capped it is a few hundred KB at most.
    expect(text.length).toBeLessThan(300_000);
    expect(text).toContain('project="project-99"');
    expect(text).not.toContain('project="project-100"');
    const polls = await metrics.handles.polls.get();
    const total = polls.values.reduce((sum, v) => sum + v.value, 0);
    expect(total).toBe(4_000 * feeds.length * 2);
    const other = polls.values.filter((v) => v.labels.project === OTHER_PROJECTS);
    expect(other.reduce((sum, v) => sum + v.value, 0)).toBe(3_900 * feeds.length * 2);
  });
});
