/**
 * A seed's whole trace in one hash: every request on the wire (when it left, from which process, its fault, when
 * the platform processed and answered it), every delivery record written, every change a channel showed, and the
 * verdict. Two runs of one seed must give the same digest: a difference means something outside the seed (the
 * wall clock, the order of real I/O) decided part of the run, and a failure of that seed could not be replayed.
 */
import { createHash } from 'node:crypto';
import type { Verdict } from './judge.js';
import type { WorldRecord } from './world/world-record.js';

/** The trace's lines, in the order the world recorded them (the digest's input; printed by `--digest-lines`). */
export function traceLines(record: WorldRecord, verdict: Verdict): string[] {
  return [
    ...record.journal.map(
      (e) =>
        `wire ${e.at} ${e.process} ${e.platform} ${e.category}/${e.postKind ?? '-'} ${e.channel} ${e.key} ${e.fault} ${e.processedAt ?? '-'}(${e.processedStatus ?? '-'}) ${e.answeredAt ?? '-'}`,
    ),
    ...record.deliveryWrites.map((w) => `ledger ${w.at} ${w.key} ${w.state}`),
    ...record.timeline.events.map((e) => `channel ${e.at} ${e.channel} ${e.change} ${e.id} ${e.text}`),
    ...record.notes.map((n) => `note ${n}`),
    `verdict ${JSON.stringify(verdict)}`,
  ];
}

export function traceDigest(record: WorldRecord, verdict: Verdict): string {
  const hash = createHash('sha256');
  for (const line of traceLines(record, verdict)) hash.update(`${line}\n`);
  return hash.digest('hex').slice(0, 16);
}
