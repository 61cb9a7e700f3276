/**
 * A real-bot seed's per-request faults are the seed's, not the run's: a notice's key holds its funding's wall-clock
 * time and a batch's its minute, and drawn from them as they were, each replay of seed 3 met other faults (about
 * one in ten drew the reset or refusal in C0CHAOS01 that fails it). Another draw is chosen by number.
 */
import { describe, expect, it } from 'vitest';
import { PlatformFaults } from './platform-faults.js';
import { weatherKey } from './real-bot/fault-proxy.js';
import { realBotSchedule } from './real-bot/real-schedule.js';

const identity = (key: string, text = '') => ({ category: 'post' as const, channel: 'C0CHAOS01', key, text });

describe('the real-bot weather', () => {
  it('draws a post the same fault in every run of its seed, and another draw by number', () => {
    const draws = (fundingTime: number, draw = 0) => {
      const faults = new PlatformFaults(realBotSchedule(3, 0).schedule);
      return Array.from({ length: 8 }, (_, i) => {
        const id = identity(
          `chaos-kiosk:supporter:funding:${fundingTime + i}:${100007 + i}@slack:T0FAKE:C0CHAOS01`,
        );
        const key = `${draw ? `draw ${draw}|` : ''}${weatherKey('slack', id)}`;
        return faults.decide({ platform: 'slack', ...id, key, at: 0 }).fault.kind;
      });
    };
    // Two runs five minutes apart: the same notices, the same faults.
    expect(draws(1795974278)).toEqual(draws(1795974578));
    // Draw 13: Fan 0007's notice in C0CHAOS01 is refused (the seed's failing weather, seeds-that-failed.json).
    expect(draws(1795974278, 13)).toEqual(draws(1795974578, 13));
    expect(draws(1795974278, 13)[6]).toBe('refused');
  });

  it('tells a batch by its channel, not its minute, and a Discord post by its text, not its nonce', () => {
    expect(
      weatherKey('slack', identity('batch:slack:T0FAKE:C0CHAOS02:chaos-kiosk:supporters:1795974240000')),
    ).toBe(
      weatherKey('slack', identity('batch:slack:T0FAKE:C0CHAOS02:chaos-kiosk:supporters:1795974660000')),
    );
    const discord = (nonce: string) => weatherKey('discord', identity(nonce, 'Fan 0007 backs Chaos Kiosk'));
    expect(discord('8123456789012345')).toBe(discord('9123456789012345'));
    expect(weatherKey('discord', identity('x', 'Fan 0007'))).not.toBe(
      weatherKey('discord', identity('x', 'Fan 0008')),
    );
  });
});
