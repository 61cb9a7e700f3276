import { localTime, type RollCallCadence, startOfLocalDate } from '../core/index.js';

const dayMs = 24 * 60 * 60 * 1000;

/** When roll-calls fall: a weekday (0 Sunday … 6 Saturday) for weekly ones, the 1st for monthly ones, at a time. */
export interface RollCallSchedule {
  readonly weekday: number;
  /** Minutes after local midnight. */
  readonly minuteOfDay: number;
}

export interface RollCallPeriod {
  /** `weekly-2026-11-23`, `monthly-2026-11-01`: the delivery id's and the cursor's name of the period. */
  readonly id: string;
  /** Epoch ms the period's roll-call fell due: supporters seen until then are in it, later ones in the next. */
  readonly cut: number;
}

/**
 * The latest roll-call time at or before `now` on the channel's clock: weekly on `schedule.weekday`, monthly on
 * the 1st, at `schedule.minuteOfDay`. Pure, so every replica and a restart agree on the period and its cut.
 */
export function latestRollCall(
  now: number,
  timeZone: string,
  cadence: RollCallCadence,
  schedule: RollCallSchedule,
): RollCallPeriod {
  const local = localTime(now, timeZone);
  const today = Date.parse(local.date);
  const before = local.minuteOfDay < schedule.minuteOfDay;
  let day: number;
  if (cadence === 'weekly') {
    let back = (new Date(today).getUTCDay() - schedule.weekday + 7) % 7;
    if (back === 0 && before) back = 7;
    day = today - back * dayMs;
  } else {
    const first = new Date(today);
    first.setUTCDate(1);
    if (first.getTime() === today && before) first.setUTCMonth(first.getUTCMonth() - 1);
    day = first.getTime();
  }
  const date = new Date(day).toISOString().slice(0, 10);
  return {
    id: `${cadence}-${date}`,
    cut: startOfLocalDate(date, timeZone) + schedule.minuteOfDay * 60_000,
  };
}
