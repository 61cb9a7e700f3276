/**
 * A process measured from outside, as `ps` and `top` see it: /proc/<pid>/status (resident set now and at
 * its peak), /proc/<pid>/stat (CPU, user + system, in clock ticks) and /proc/<pid>/io (bytes the process
 * caused to be written to a block device). Linux only: elsewhere {@link readProcSample} returns undefined.
 */
import { readFileSync } from 'node:fs';

export interface ProcSample {
  /** Epoch ms. */
  readonly at: number;
  readonly rssBytes: number;
  /** VmHWM: the highest resident set size since the process started. */
  readonly peakRssBytes: number;
  /** User + system CPU since the process started, ms. */
  readonly cpuMs: number;
  /** /proc/<pid>/io `write_bytes`: what reached (or will reach, at writeback) the storage layer. */
  readonly diskWriteBytes: number;
}

/** Clock ticks a second of /proc/<pid>/stat (USER_HZ: 100 on every Linux Node runs on). */
const ticksPerSecond = 100;

function statusField(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  return match === null ? 0 : Number(match[1]) * 1024;
}

export function readProcSample(pid: number): ProcSample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), counted from field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    let diskWriteBytes = 0;
    try {
      const io = readFileSync(`/proc/${pid}/io`, 'utf8');
      diskWriteBytes = Number(/^write_bytes:\s+(\d+)/m.exec(io)?.[1] ?? 0);
    } catch {
      // /proc/<pid>/io needs ptrace rights on the process; the disk bench counts with strace instead.
    }
    return {
      at: Date.now(),
      rssBytes: statusField(status, 'VmRSS'),
      peakRssBytes: statusField(status, 'VmHWM'),
      cpuMs: (ticks * 1000) / ticksPerSecond,
      diskWriteBytes,
    };
  } catch {
    return undefined;
  }
}

/** Samples a process every `everyMs` and keeps what the bench reports: peaks, and the samples for windows. */
export class ProcWatch {
  readonly samples: ProcSample[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(
    readonly pid: number,
    everyMs = 500,
  ) {
    this.sample();
    this.#timer = setInterval(() => this.sample(), everyMs);
  }

  sample(): ProcSample | undefined {
    const s = readProcSample(this.pid);
    if (s !== undefined) this.samples.push(s);
    return s;
  }

  /** Highest resident set size seen (the kernel's own peak, VmHWM, included). */
  peakRssMb(from = 0): number {
    const inWindow = this.samples.filter((s) => s.at >= from);
    const peak = Math.max(0, ...inWindow.map((s) => (from === 0 ? s.peakRssBytes : s.rssBytes)));
    return Math.round(peak / 104_857.6) / 10;
  }

  /** CPU of the process between two moments, in % of one core. */
  cpuPct(from: ProcSample, to: ProcSample): number {
    return Math.round(((to.cpuMs - from.cpuMs) / Math.max(1, to.at - from.at)) * 1000) / 10;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/**
 * Where a process's resident memory is, from /proc/<pid>/smaps, in MB: `malloc` (glibc's main heap, [heap]),
 * `anonymous` (V8's heap pages, thread stacks and the other threads' malloc arenas), `nodeBinary` (the text and
 * data of the node executable touched so far) and `otherFiles` (shared libraries, native addons, fonts).
 */
export function residentBreakdown(pid: number): Record<string, number> | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined;
  }
  const kb: Record<string, number> = { malloc: 0, anonymous: 0, nodeBinary: 0, otherFiles: 0 };
  let bucket = 'anonymous';
  for (const line of text.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping !== null) {
      const name = mapping[1] ?? '';
      bucket =
        name === '[heap]'
          ? 'malloc'
          : name === '' || name.startsWith('[')
            ? 'anonymous'
            : /\/node$/.test(name)
              ? 'nodeBinary'
              : 'otherFiles';
      continue;
    }
    if (line.startsWith('Rss:')) kb[bucket] = (kb[bucket] ?? 0) + Number(line.split(/\s+/)[1]);
  }
  return Object.fromEntries(Object.entries(kb).map(([k, v]) => [k, Math.round(v / 102.4) / 10]));
}
