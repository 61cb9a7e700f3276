/**
 * `npm run bench`: a simulated campaign day on a virtual clock with Pro limits,
 * the naive poller for comparison, and the scale figures at 100,000 supporters.
 * Prints a readable table and ends with ONE JSON line.
 */
import { pathToFileURL } from 'node:url';
import { runCampaignDay } from './campaign-day.js';
import { physicalLimitP95Ms, planFigures } from './plans.js';
import type { BenchSection, Figures } from './section.js';
import { benchSections } from './sections.js';
import { RssPeak } from './stats.js';

export type { BenchSection, CampaignContext, Figures } from './section.js';

function row(label: string, value: unknown, target = ''): string {
  return `  ${label.padEnd(34)} ${String(value).padStart(14)}   ${target}`;
}

/** Runs the campaign day with every section's hooks, then the sections' own runs; returns the merged figures. */
export async function runBench(sections: readonly BenchSection[] = benchSections): Promise<Figures> {
  const started = Date.now();
  const rss = new RssPeak();
  const campaign = await runCampaignDay(sections, rss);
  const figures: Figures = { ...campaign };
  const details: Figures = { ...(campaign['details'] as Figures) };
  for (const section of sections) {
    if (!section.run) continue;
    // One section's fault is recorded and the rest still run: a whole bench run is 40 minutes.
    const result: Figures = await section.run().catch((error: unknown): Figures => {
      process.stderr.write(`bench: section ${section.name} failed: ${String(error)}\n`);
      return {
        sectionErrors: {
          ...(figures['sectionErrors'] as Figures | undefined),
          [section.name]: String(error),
        },
      };
    });
    const { details: more, ...rest } = result;
    Object.assign(figures, rest);
    if (more && typeof more === 'object') Object.assign(details, more);
    rss.sample();
  }
  // Pro is the main campaign day; the plans section adds the bigger plans.
  figures['plans'] = { pro: planFigures(campaign, 'pro'), ...(figures['plans'] as Figures | undefined) };
  figures['physicalLimitP95Ms'] = physicalLimitP95Ms('pro');
  figures['peakRssMb'] = rss.mb;
  figures['details'] = { ...details, wallSeconds: Math.round((Date.now() - started) / 100) / 10 };
  return figures;
}

function print(f: Figures): void {
  const lat = f['latencyMs'] as Record<string, { p50: number; p95: number; max: number }>;
  const d = f['details'] as Record<string, unknown>;
  const naiveRatio = Number(f['naiveRequests']) / Math.max(1, Number(f['requests']));
  const lines = [
    'fundbot engine benchmark: one simulated launch day (Pro: 120/min, 10,000/day)',
    '',
    row('figure', 'value', 'target'),
    row('API requests (engine)', f['requests']),
    row('share of the key day budget', `${f['budgetPct']} %`, '<= 90 %'),
    row('share of each budget', budgetsText(f['budgetPctByCredential']), 'each <= 90 %'),
    row('HTTP 429', f['http429'], '0'),
    row('notices delivered', f['notices']),
    row('duplicates', f['duplicates'], '0'),
    row('misses', f['misses'], '0'),
    row(
      'supporter latency p50/p95/max',
      `${sec(lat['fundings']?.p50)}/${sec(lat['fundings']?.p95)}/${sec(lat['fundings']?.max)}`,
      'p95 <= 13 s',
    ),
    row(
      'wall latency p50/p95/max',
      `${sec(lat['wall']?.p50)}/${sec(lat['wall']?.p95)}/${sec(lat['wall']?.max)}`,
    ),
    row(
      'blog latency p50/p95/max',
      `${sec(lat['blog']?.p50)}/${sec(lat['blog']?.p95)}/${sec(lat['blog']?.max)}`,
    ),
    row('physical limit (all to fundings) p95', sec(Number(f['physicalLimitP95Ms']))),
    readToPostRow(f['readToPostMs'] as Figures | undefined),
    ...wholeDayRows(f['wholeDay'] as Record<string, Figures> | undefined),
    row('bound: best uniform poller p95', sec(Number(f['boundP95Ms'])), 'docs/latency-bound.md'),
    ...oracleRows(f['oracleSchedules'] as Record<string, Record<string, Figures>> | undefined),
    row('spurious notices', f['spurious'], '0'),
    row('naive first-page poller requests', f['naiveRequests']),
    row('naive first-page / engine', `${naiveRatio.toFixed(2)}x`),
    row('naive full re-read requests', f['naiveFullRereadRequests']),
    ...planRows(f['plans'] as Record<string, Figures>),
    row('state at 100k supporters', `${f['stateMb100k']} MB`, '<= 50 MB'),
    row('state at 1k supporters', `${d['stateMb1k']} MB`),
    row('idle cycle CPU at 100k', `${f['idleCycleCpuMs100k']} ms`, 'independent of length'),
    row('idle cycle CPU at 1k', `${d['idleCycleCpuMs1k']} ms`),
    row('store bytes per idle poll (100k)', `${f['storeBytesPerIdlePoll']} B`, '<= 4096 B'),
    row('store bytes per day (per project)', `${mb(Number(f['storeBytesPerDay']))} MB`, '<= 50 MB'),
    row('disk bytes per idle poll (strace)', `${f['diskBytesPerIdlePoll']} B`, '<= 4096 B'),
    row('disk bytes per day (launch day)', `${mb(Number(f['diskBytesPerDay']))} MB`, '<= 50 MB'),
    row('fsyncs per poll (idle)', f['fsyncsPerPollCycle'], '<= 1'),
    row('peak RSS', `${f['peakRssMb']} MB`),
    '',
    `  ground truth: ${JSON.stringify(d['truth'])}; notices by type: ${JSON.stringify(d['noticesByType'])}`,
    `  requests by feed: ${JSON.stringify(d['requestsByFeed'])}; 5xx seen: ${d['http5xx']}; shifts applied: ${d['shiftsApplied']}; heals: ${d['heals']}`,
    `  restart after a 15-minute outage in the launch rush: ${JSON.stringify(d['outage'])} (not in the latencies above)`,
    `  the bot (compiled) with 1,000 projects: ${JSON.stringify(f['scale'])}; ${JSON.stringify(d['scaleRun'])}`,
    `  the bot (compiled) with 3,000 projects: ${JSON.stringify(f['scale3000'])}`,
    `  the engine alone with 1,000 projects: ${JSON.stringify(f['scaleEngine'])}`,
    `  disk per idle poll of the bot, 20,000 supporters: ${JSON.stringify(f['longList'])}`,
    `  3 replicas x 1,000 projects on Redis: ${JSON.stringify(f['scaleRedis'])}`,
    `  list order: ${d['listOrder']}; wall time ${d['wallSeconds']} s`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The whole-day runs (bench/whole-day.ts): the engine beside the fair uniform poller. */
function wholeDayRows(days: Record<string, Figures> | undefined): string[] {
  const targets: Record<string, string> = {
    dailyCurve: 'p95 <= 0.8x, mean <= 0.7x uniform',
    flat: 'p95 <= 1.0x uniform, <= 1.15x bound',
  };
  const { keyOnly, ...withUserKey } = days ?? {};
  const keyOnlyDays = Object.entries((keyOnly ?? {}) as Record<string, Figures>).map(
    ([name, d]) => [`${name} (key only)`, d] as const,
  );
  return [...Object.entries(withUserKey), ...keyOnlyDays].flatMap(([name, d]) => [
    row(
      `${name}: supporter p95/mean (uniform)`,
      `${sec(Number(d['supporterP95Ms']))}/${sec(Number(d['supporterMeanMs']))} (${sec(Number(d['uniformPollerP95Ms']))}/${sec(Number(d['uniformPollerMeanMs']))})`,
      targets[name] ?? '',
    ),
    row(
      `${name}: wall/blog p95, max budget`,
      `${sec(Number(d['wallP95Ms']))}/${sec(Number(d['blogP95Ms']))} ${d['budgetPctMax']}%`,
      '60 s / 300 s, <= 90 %',
    ),
  ]);
}

/** bench/read-to-post.ts: from the read that listed a supporter to the Slack post naming it (real bot, real clock). */
function readToPostRow(r: Figures | undefined): string {
  const text = r ? `${r['p50']}/${r['p95']}/${r['p99']} ms (${r['samples']})` : '-';
  return row('read to post p50/p95/p99 (samples)', text, 'p95 <= 250 ms');
}

/** What the key alone could reach knowing the day's curve (bench/oracle-schedules.ts). */
function oracleRows(days: Record<string, Record<string, Figures>> | undefined): string[] {
  const o = days?.['dailyCurve'];
  if (!o) return [];
  const text = (s: Figures | undefined) => `${s?.['p95VsUniform']}x/${s?.['meanVsUniform']}x`;
  return [
    row('key alone, oracle sqrt(rate) p95/mean', text(o['sqrtRate']), 'vs uniform, daily curve'),
    row('key alone, oracle quiet cut p95/mean', text(o['quietCut']), 'vs uniform, daily curve'),
  ];
}

function planRows(plans: Record<string, Figures> | undefined): string[] {
  const targets: Record<string, string> = {
    pro: 'p95 <= 13 s',
    proWithUserKey: 'p95 <= 12 s',
    premium: 'p95 <= 3 s',
    enterprise: 'p95 <= 2 s',
  };
  return Object.entries(plans ?? {}).map(([plan, p]) => {
    const l = (p['latencyMs'] as Record<string, { p95: number }> | undefined) ?? {};
    const text = `${sec(l['fundings']?.p95)} ${budgetsText(p['budgetPctByCredential'])} 429:${p['http429']} dup:${p['duplicates']} miss:${p['misses']}`;
    return row(`${plan}: supporter p95, budget`, text, targets[plan] ?? '');
  });
}

function mb(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

function sec(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * `npm run bench -- --only delivery-faults[,slack-in-doubt]`: only those sections' own runs (by their `name`),
 * without the campaign day; the one JSON line then holds their figures alone (and their details).
 */
export async function runOnly(names: readonly string[]): Promise<Figures> {
  const unknown = names.filter((name) => !benchSections.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new Error(
      `--only: no bench section named ${unknown.join(', ')} (there are: ${benchSections.map((s) => s.name).join(', ')})`,
    );
  const figures: Figures = {};
  for (const section of benchSections.filter((s) => names.includes(s.name))) {
    if (!section.run)
      throw new Error(`--only: ${section.name} rides along the campaign day; run the whole bench`);
    Object.assign(figures, await section.run());
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const only = process.argv.indexOf('--only');
  if (only >= 0) {
    const figures = await runOnly((process.argv[only + 1] ?? '').split(',').filter(Boolean));
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } else {
    const figures = await runBench();
    print(figures);
    const { details: _details, ...json } = figures;
    process.stdout.write(`${JSON.stringify(json)}\n`);
  }
  // Once the line is written out: a chaos seed that hung may have left timers behind, which must not keep the bench
  // running (writes are ordered, so this empty one's callback comes after the line's).
  process.stdout.write('', () => process.exit(0));
}

/** `key 85% public 85%`: each credential's share of its own day budget. */
function budgetsText(shares: unknown): string {
  return Object.entries((shares as Record<string, number> | undefined) ?? {})
    .map(([credential, pct]) => `${credential} ${pct}%`)
    .join(' ');
}
