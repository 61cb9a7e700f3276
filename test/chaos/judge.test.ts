/**
 * The judge (judge.ts) on hand-made records. Its latency bound: a notice held back by the API's own fault (seed 46:
 * six 429s with Retry-After 10 s, then a 503: a supporter who arrived just before was read 69 s later, and the
 * bot obeyed every wait) is not judged by the 60 s bound, as one held by a dead process or a store outage is not;
 * the same latency without an API fault still breaks it. A world stopped on a timer spin fails with the spin.
 */
import { describe, expect, it } from 'vitest';
import { judge } from './judge.js';
import { ChannelTimeline } from './platforms/channel-timeline.js';
import { scheduleFor } from './schedule.js';
import type { Disruption, WorldRecord } from './world/world-record.js';

const schedule = {
  ...scheduleFor(1),
  channels: [{ platform: 'slack', id: 'C1', pacing: 'live', dailyThread: false, digest: false }] as const,
  storms: [],
};
const at = (seconds: number) => schedule.start + seconds * 1_000;

/** Ten supporters a minute apart, each shown 5 s after arriving, but the last, shown `lastMs` after. */
function record(lastMs: number, disruptions: Disruption[]): WorldRecord {
  const timeline = new ChannelTimeline();
  const truth = Array.from({ length: 10 }, (_, i) => ({ name: `Fan 00${10 + i}`, at: at(60 * (i + 1)) }));
  truth.forEach(({ name, at: arrived }, i) => {
    timeline.record(arrived + (i === 9 ? lastMs : 5_000), 'slack:C1', `m${i}`, { text: `${name} backed it` });
  });
  return {
    schedule,
    timeline,
    journal: [],
    truth,
    readAt: new Map(truth.map(({ name, at: arrived }) => [name, arrived])),
    deliveryWrites: [],
    disruptions,
    notes: [],
    log: [],
    endedAt: at(900),
    apiRequests: {},
  };
}

describe('the latency bound', () => {
  it('does not judge a notice whose supporter arrived while the API failed (its Retry-Afters are the wait)', () => {
    const api: Disruption = { from: at(600) + 300, to: at(600) + 69_700, what: 'api' };
    const verdict = judge(record(69_800, [api]));
    expect(verdict.violations).toEqual([]);
  });

  it('judges the same latency when no fault held it', () => {
    const verdict = judge(record(69_800, []));
    expect(verdict.violations).toEqual([
      'latency: p99 69.8 s of the live notices no fault held (bound 60.0 s)',
    ]);
  });
});

describe('a timer spin', () => {
  it('is a violation of its own: the world stopped early, and says where (seed 8 once crawled for hours)', () => {
    const spin = 'a timer spin from +255100 ms: something asked to be woken at once, again and again';
    const verdict = judge({ ...record(5_000, []), spin });
    expect(verdict.violations).toEqual([`spin: ${spin}`]);
  });
});

describe('the doubt bound', () => {
  const key = encodeURIComponent('chaos-kiosk:supporter:1') + '/slack:T0CHAOS:C1';
  /** The bot without access to `channel` from +120 s to +200 s; `looksRefused`: its looks refused there too. */
  const accessFault = (channel: string, looksRefused: boolean): Disruption => ({
    from: at(120),
    to: at(200),
    what: 'access',
    channel,
    looksRefused,
  });
  /** One delivery in doubt from +100 s until +100 s + `ms`, decided then. */
  const doubtFor = (ms: number, disruptions: Disruption[]): WorldRecord => ({
    ...record(5_000, disruptions),
    deliveryWrites: [
      { at: at(100), key, state: 'attempting' },
      { at: at(100) + ms, key, state: 'posted' },
    ],
  });

  it('does not count the time the bot was out of the channel (its looks refused), plus one look interval', () => {
    const out = accessFault('slack:C1', true);
    expect(judge(doubtFor(141_500, [out])).violations).toEqual([]);
    expect(judge(doubtFor(261_000, [out])).violations).toEqual([
      `doubt: ${decodeURIComponent(key)} stayed in doubt 261.0 s (bound 260.0 s, 80.0 s out of the channel)`,
    ]);
  });

  it('reports the raw longest doubt and, beside it, the doubt less its excuses (the figure the bound is on)', () => {
    const out = accessFault('slack:C1', true);
    const figures = judge(doubtFor(261_000, [out])).figures;
    expect(figures.maxDoubtMs).toBe(261_000);
    // 80 s out of the channel and the one look interval (60 s) its end costs.
    expect(figures.maxCountedDoubtMs).toBe(121_000);
  });

  it('counts the time of a fault that leaves looks working (an archived channel is still read)', () => {
    const archived = accessFault('slack:C1', false);
    expect(judge(doubtFor(141_500, [archived])).violations).toEqual([
      `doubt: ${decodeURIComponent(key)} stayed in doubt 141.5 s (bound 120.0 s)`,
    ]);
  });

  it("counts it when another channel was out (seed 192's 141.5 s in doubt breaks the 120 s bound then)", () => {
    const other = accessFault('slack:C2', true);
    expect(judge(doubtFor(141_500, [other])).violations).toEqual([
      `doubt: ${decodeURIComponent(key)} stayed in doubt 141.5 s (bound 120.0 s)`,
    ]);
  });
});
