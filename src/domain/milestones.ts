/** The default funding milestones, in percent of the goal. */
export const defaultMilestones: readonly number[] = [25, 50, 75, 100, 150, 200];

export interface MilestoneCrossing {
  readonly percent: number;
  /** The 100% milestone of an all-or-nothing project. */
  readonly goalReached: boolean;
}

/** Funding in percent of the goal; null without a goal. */
export function percentOf(funding: number, goal: number): number | null {
  return goal > 0 ? (funding / goal) * 100 : null;
}

/**
 * The milestones to announce now. Each milestone is announced once per project,
 * ever: a drop below it (failed supports) and a new rise do not repeat it. When a
 * single poll crosses several (a restart, a big pledge), only the highest one is
 * announced, plus "goal reached" for an all-or-nothing project, because that one
 * changes the project's fate. For all-or-nothing projects 100 is always a milestone.
 *
 * @returns the crossings to announce and every milestone now reached (to store).
 */
export function crossedMilestones(input: {
  funding: number;
  goal: number;
  allOrNothing: boolean;
  milestones: readonly number[];
  done: readonly number[];
}): { announce: MilestoneCrossing[]; done: number[] } {
  const pct = percentOf(input.funding, input.goal);
  const all = new Set(input.milestones);
  if (input.allOrNothing) all.add(100);
  const done = new Set(input.done);
  if (pct === null) return { announce: [], done: [...done].sort((a, b) => a - b) };
  // A tiny tolerance: 7500 of 10000 is 75% even after floating point division.
  const reached = [...all].filter((m) => pct + 1e-9 >= m && !done.has(m)).sort((a, b) => a - b);
  for (const m of reached) done.add(m);
  const announce: MilestoneCrossing[] = [];
  const highest = reached.at(-1);
  if (input.allOrNothing && reached.includes(100) && highest !== 100)
    announce.push({ percent: 100, goalReached: true });
  if (highest !== undefined)
    announce.push({ percent: highest, goalReached: input.allOrNothing && highest === 100 });
  return { announce, done: [...done].sort((a, b) => a - b) };
}
