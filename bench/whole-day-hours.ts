import { pathToFileURL } from 'node:url';
import { type CampaignOptions, defaultCampaign, runCampaignDay, wholeDayStart } from './campaign-day.js';
import type { BenchSection, Figures } from './section.js';
import { RssPeak } from './stats.js';

const hour = 3_600_000;

/**
 * The whole day's requests hour by hour, from the simulator's log (what the key spent and where):
 * per UTC hour, the fundings first-page reads and their mean gap, the deeper fundings pages, the
 * key's requests per list, the public reads and the key's day budget left at the hour's end. A
 * diagnosis of `wholeDay` (why an hour's fundings reads were slower or faster), not a bench figure.
 */
export function hourlyRequests(sim: BenchSectionContextSim, start: number, dayLimit: number): Figures[] {
  const rows: Figures[] = [];
  let keySpent = 0;
  for (let h = 0; h < 24; h++) {
    const from = start + h * hour;
    const inHour = sim.requests.filter((r) => r.at >= from && r.at < from + hour);
    const fundings = inHour.filter((r) => r.path.endsWith('/fundings'));
    const firstPages = fundings.filter((r) => Number(r.query['offset'] ?? 0) === 0).map((r) => r.at);
    const gaps = firstPages.slice(1).map((at, i) => at - (firstPages[i] ?? at));
    const key = inHour.filter((r) => r.status < 500 && r.credential === 'project');
    keySpent += key.length;
    const byList = (suffix: string) => key.filter((r) => r.path.endsWith(suffix)).length;
    rows.push({
      hour: h,
      fundingsFirst: firstPages.length,
      meanGapS:
        gaps.length === 0 ? null : Math.round(gaps.reduce((s, g) => s + g, 0) / gaps.length / 100) / 10,
      fundingsDeep: fundings.length - firstPages.length,
      // Deeper pages inside the window region (a second page, a heal) and below it (fill, late search, sweep).
      deepInWindow: fundings.filter((r) => {
        const offset = Number(r.query['offset'] ?? 0);
        return offset > 0 && offset < 500;
      }).length,
      key: key.length,
      wall: byList('/wall'),
      blog: byList('/blog'),
      incentives: byList('/incentives'),
      projectKey: key.filter((r) => /\/project\/[^/]+$/.test(r.path)).length,
      public: inHour.filter((r) => r.status < 500 && r.credential === 'none').length,
      keyLeftPct: Math.round(((dayLimit - keySpent) / dayLimit) * 1000) / 10,
    });
  }
  return rows;
}

type BenchSectionContextSim = Parameters<
  NonNullable<NonNullable<BenchSection['campaign']>['figures']>
>[0]['sim'];

/** `npx tsx bench/whole-day-hours.ts [flat|launch-day] [user]`: one whole day's hourly requests, one JSON row an hour. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const profile = process.argv[2] === 'launch-day' ? 'launch-day' : 'flat';
  const options: CampaignOptions = {
    ...defaultCampaign,
    plan: 'pro',
    dayStart: wholeDayStart,
    hours: 24,
    profile,
    naive: false,
    userKey: process.argv[3] === 'user',
  };
  let rows: Figures[] = [];
  const section: BenchSection = {
    name: 'whole-day-hours',
    campaign: {
      figures(ctx) {
        rows = hourlyRequests(ctx.sim, ctx.start, 10_000);
        return {};
      },
    },
  };
  const f = await runCampaignDay([section], new RssPeak(), options);
  for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
  const d = f['details'] as Figures;
  process.stdout.write(
    `${JSON.stringify({ latencyMs: f['latencyMs'], budget: f['budgetPctByCredential'], http429: f['http429'], fundingsRequests: d['fundingsRequests'], firstPages: d['fundingsFirstPageRequests'] })}\n`,
  );
}
