/**
 * One chaos seed on the virtual clock, judged: the schedule it means, the world it runs, the verdict. A failing
 * seed's report starts with the one command that replays it.
 */
import { judge, type Verdict } from './judge.js';
import { scheduleFor } from './schedule.js';
import type { Schedule } from './vocabulary.js';
import { runWorld } from './world/run-world.js';
import type { WorldRecord } from './world/world-record.js';

export interface SeedRun {
  readonly verdict: Verdict;
  readonly schedule: Schedule;
  readonly record: WorldRecord;
  readonly wallMs: number;
}

/** The command that replays a seed on the virtual clock (or on the running bot). */
export function replayCommand(seed: number, realBot = false): string {
  return `npm run chaos -- --seed ${seed}${realBot ? ' --real-bot' : ''}`;
}

export async function runSeed(
  seed: number,
  options: { readonly lateLanding?: boolean } = {},
): Promise<SeedRun> {
  const started = Date.now();
  const schedule = scheduleFor(seed);
  const record = await runWorld(schedule, options);
  return { verdict: judge(record), schedule, record, wallMs: Date.now() - started };
}

/** What a failing seed prints: the replay command, the violations, the schedule in short, the world's notes. */
export function seedReport(run: Pick<SeedRun, 'verdict' | 'schedule' | 'record'>, realBot = false): string {
  const { verdict, schedule, record } = run;
  const at = (ms: number) => `+${((ms - schedule.start) / 1000).toFixed(1)}s`;
  const lines = [
    `chaos seed ${verdict.seed} failed: replay with  ${replayCommand(verdict.seed, realBot)}`,
    ...verdict.violations.slice(0, 20).map((v) => `  ✗ ${v}`),
    ...(verdict.violations.length > 20 ? [`  … and ${verdict.violations.length - 20} more`] : []),
    `  schedule: ${schedule.replicas} replica(s); ${schedule.arrivals.length} supporters ${at(schedule.arrivals[0]?.at ?? schedule.start)}..${at(schedule.arrivals.at(-1)?.at ?? schedule.start)}; digest ${schedule.digestTime}; Discord nonce window ${schedule.nonceWindowMs / 60_000} min`,
    `  channels: ${schedule.channels.map((c) => `${c.platform}:${c.id} ${c.pacing}${c.dailyThread ? '+thread' : ''}${c.digest ? '+digest' : ''}`).join(', ')}`,
    `  weather: posts fail slack ${schedule.weather.postFaultRate.slack}, discord ${schedule.weather.postFaultRate.discord}; looks ${schedule.weather.lookFaultRate}; edits ${schedule.weather.editFaultRate}; mix ${JSON.stringify(schedule.weather.mix)}`,
    ...schedule.storms.map(
      (s) =>
        `  storm: ${s.platform}${s.channel ? `:${s.channel}` : ''} ${s.fault} x${s.rate} ${at(s.from)}..${at(s.to)}`,
    ),
    ...schedule.faults.map((f) => `  fault ${at(f.at)}: ${JSON.stringify({ ...f, at: undefined })}`),
    ...record.notes.map((n) => `  note: ${n}`),
  ];
  return lines.join('\n');
}
