import { beforeEach, describe } from 'vitest';
import { z } from 'zod';
import { memoryLease } from '../../../src/lib/coordination/lease.js';
import { memoryStore } from '../../../src/lib/store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type LeaseSubject, leaseContract } from './lease-contract.js';

describe('memoryLease', () => {
  let subject: LeaseSubject;
  beforeEach(() => {
    const clock = new ManualClock();
    const store = memoryStore();
    const ttlMs = 30_000;
    subject = {
      lease: memoryLease(clock, store),
      ttlMs,
      expire: async () => clock.advance(ttlMs),
      read: (key) => store.get(key, z.string()),
    };
  });
  leaseContract(() => subject);
});
