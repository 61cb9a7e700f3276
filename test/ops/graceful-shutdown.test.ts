import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { installGracefulShutdown, type ShutdownStep } from '../../src/ops/graceful-shutdown.js';
import { silentLogger } from '../../src/ops/logger.js';
import { ManualClock } from '../support/manual-clock.js';

/** A step that records when it started and finished, and finishes when told to (or at once). */
function step(
  name: string,
  journal: string[],
  behaviour: 'instant' | 'manual' | 'fail' | 'throw-sync' = 'instant',
) {
  let finish: () => void = () => {};
  const s: ShutdownStep = {
    name,
    stop: () => {
      journal.push(`start ${name}`);
      if (behaviour === 'throw-sync') throw new Error(`${name} broke`);
      if (behaviour === 'fail') return Promise.reject(new Error(`${name} failed`));
      if (behaviour === 'instant') {
        journal.push(`done ${name}`);
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        finish = () => {
          journal.push(`done ${name}`);
          resolve();
        };
      });
    },
  };
  return Object.assign(s, { finish: () => finish() });
}

function setup(steps: ShutdownStep[], totalTimeoutMs = 5_000) {
  const signals = new EventEmitter();
  const clock = new ManualClock();
  const exits: number[] = [];
  const shutdown = installGracefulShutdown({
    signals,
    steps,
    totalTimeoutMs,
    logger: silentLogger,
    exit: (code) => exits.push(code),
    clock,
  });
  return { signals, clock, exits, shutdown };
}

describe('graceful shutdown', () => {
  it('runs the steps in order on SIGTERM, one after the other, then exits 0', async () => {
    const journal: string[] = [];
    const commands = step('stop accepting commands', journal);
    const pollers = step('stop pollers', journal, 'manual');
    const deliveries = step('finish deliveries', journal, 'manual');
    const store = step('close store', journal);
    const servers = step('close servers', journal);
    const { signals, exits, shutdown } = setup([commands, pollers, deliveries, store, servers]);

    signals.emit('SIGTERM');
    expect(shutdown.stopping).toBe(true);
    await vi.waitFor(() => expect(journal).toContain('start stop pollers'));
    expect(journal).not.toContain('start finish deliveries');
    pollers.finish();
    await vi.waitFor(() => expect(journal).toContain('start finish deliveries'));
    expect(journal).not.toContain('start close store');
    deliveries.finish();
    expect(await shutdown.shutdown('again')).toBe(0);
    expect(journal).toEqual([
      'start stop accepting commands',
      'done stop accepting commands',
      'start stop pollers',
      'done stop pollers',
      'start finish deliveries',
      'done finish deliveries',
      'start close store',
      'done close store',
      'start close servers',
      'done close servers',
    ]);
    expect(exits).toEqual([0]);
  });

  it('bounds the steps by the total budget, not per step: two slow steps share 8 s, the rest is given up on', async () => {
    const journal: string[] = [];
    const slow = step('stop pollers', journal, 'manual');
    const hanging = step('stop slack', journal, 'manual');
    const { signals, clock, exits, shutdown } = setup([slow, hanging, step('close store', journal)], 8_000);
    signals.emit('SIGTERM');
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    clock.advance(5_000);
    slow.finish();
    await vi.waitFor(() => expect(journal).toContain('start stop slack'));
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    clock.advance(2_999);
    expect(journal).not.toContain('start close store');
    clock.advance(1); // 8 s in total: the hanging step is cut off and nothing is left for the store
    expect(await shutdown.shutdown('wait')).toBe(1);
    expect(journal).toEqual(['start stop pollers', 'done stop pollers', 'start stop slack']);
    expect(exits).toEqual([1]);
  });

  it('bounds a hanging step by the budget, goes on with the next and exits 1', async () => {
    const journal: string[] = [];
    const hanging = step('stop pollers', journal, 'manual');
    const limited = { ...step('close store', journal), timeoutMs: 1_000 };
    const { signals, clock, exits, shutdown } = setup([{ ...hanging, timeoutMs: 5_000 }, limited], 8_000);
    signals.emit('SIGINT');
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    clock.advance(4_999);
    expect(journal).toEqual(['start stop pollers']);
    clock.advance(1);
    expect(await shutdown.shutdown('wait')).toBe(1);
    expect(journal).toEqual(['start stop pollers', 'start close store', 'done close store']);
    expect(exits).toEqual([1]);
  });

  it('a failing or throwing step does not keep the store from being closed', async () => {
    const journal: string[] = [];
    const { exits, shutdown } = setup([
      step('stop accepting commands', journal, 'throw-sync'),
      step('finish deliveries', journal, 'fail'),
      step('close store', journal),
    ]);
    expect(await shutdown.shutdown('fatal error')).toBe(1);
    expect(journal).toEqual([
      'start stop accepting commands',
      'start finish deliveries',
      'start close store',
      'done close store',
    ]);
    expect(exits).toEqual([1]);
  });

  it('a second signal while stopping forces exit 1 at once, and exit is not called again later', async () => {
    const journal: string[] = [];
    const hanging = step('stop pollers', journal, 'manual');
    const { signals, exits, shutdown } = setup([hanging]);
    signals.emit('SIGTERM');
    await vi.waitFor(() => expect(journal).toEqual(['start stop pollers']));
    signals.emit('SIGINT');
    expect(exits).toEqual([1]);
    hanging.finish();
    await shutdown.shutdown('done');
    expect(exits).toEqual([1]);
  });

  it('is idempotent: repeated shutdown() calls run the steps once', async () => {
    const journal: string[] = [];
    const { exits, shutdown } = setup([step('close store', journal)]);
    const first = shutdown.shutdown('one');
    const second = shutdown.shutdown('two');
    expect(second).toBe(first);
    await first;
    expect(journal).toEqual(['start close store', 'done close store']);
    expect(exits).toEqual([0]);
  });

  it('uninstall removes the signal listeners', () => {
    const { signals, shutdown } = setup([]);
    expect(signals.listenerCount('SIGTERM')).toBe(1);
    shutdown.uninstall();
    expect(signals.listenerCount('SIGTERM')).toBe(0);
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });
});
