/**
 * The scale benches' simulator in a process of its own (bench/scale-sim-child.ts), seen from the bench:
 * its URL and keys, and what it saw of the bot (first polls, fundings read intervals).
 */
import { fork } from 'node:child_process';
import { benchChild } from './compiled-children.js';
import type { FirstPolls, ScaleSimOptions } from './scale-sim-watch.js';
import type { LatencySummary } from './stats.js';

/** The run starts this long after a UTC midnight (the simulator's clock, and an in-process bot's, are shifted there). */
const afterMidnightMs = 10_000;

export function offsetToAfterMidnight(): number {
  const now = Date.now();
  return Math.floor(now / 86_400_000 + 1) * 86_400_000 + afterMidnightMs - now;
}

export interface SimStats extends FirstPolls {
  readonly requests: number;
  readonly slowed: number;
  readonly cpuMs: number;
  readonly supportersAdded: number;
  /** Replies by feed and status since the start (`fundings 200`). */
  readonly replies: Record<string, number>;
}

export interface ScaleSimulator {
  readonly url: string;
  readonly keys: string[];
  stats(): Promise<SimStats>;
  /** When each fully polled project (`project-<i>`) was first fully polled (real epoch ms). */
  fullAt(): Promise<Record<string, number>>;
  /** Gaps between consecutive fundings reads of a project within [from, to] (epoch ms), all projects. */
  fundingsIntervals(from: number, to: number): Promise<LatencySummary & { readonly samples: number }>;
  stop(): void;
}

/**
 * The simulator for `count` projects (each with its own Pro key and 30 supporters from the day before) on a
 * clock `offsetMs` ahead: its rate-limit day starts just before the run, so every key's plan is the whole day's
 * pace whenever the bench runs (bench/shifted-clock.ts).
 */
export async function startScaleSimulator(
  count: number,
  offsetMs: number,
  options: ScaleSimOptions = {},
): Promise<ScaleSimulator> {
  const child = fork(
    await benchChild('bench/scale-sim-child.ts'),
    [String(count), String(offsetMs), JSON.stringify(options)],
    { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const ready = await new Promise<{ url: string; keys: string[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; keys: string[] }));
    child.once('exit', (code) => reject(new Error(`the simulator process exited (${code})`)));
  });
  // One question at a time: each answer is the next message.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = <T>(question: object): Promise<T> => {
    const answer = queue.then(
      () =>
        new Promise<T>((resolve) => {
          child.once('message', (m) => resolve(m as T));
          child.send(question);
        }),
    );
    queue = answer.catch(() => undefined);
    return answer;
  };
  return {
    ...ready,
    stats: () => ask<SimStats>({ ask: 'stats' }),
    fullAt: () => ask<Record<string, number>>({ ask: 'fullAt' }),
    fundingsIntervals: (from, to) => ask({ ask: 'fundingsIntervals', from, to }),
    stop: () => child.disconnect(),
  };
}
