/**
 * Reads an strace log (`strace -f -y -e trace=write,pwrite64,pwritev,fsync,fdatasync`) and adds
 * up what reached the files of one SQLite database (the file, its -wal and -journal): bytes the
 * process handed to the kernel for them, and fsync/fdatasync calls on them. This is where the cost
 * lands on the disk (issue 22: counting at the store interface showed 991 B where the disk got
 * 42.8 KB). `-y` names each descriptor's path; a call split by another thread (`<unfinished ...>`,
 * then `<... resumed>`) is joined by pid. Phases are cut by marker writes: the measured process
 * writes a phase name to a file whose path contains `markerFile`.
 */
export interface StoreSyscalls {
  readonly bytes: number;
  readonly fsyncs: number;
  /** Bytes per file suffix ('' for the database itself, '-wal', '-journal'). */
  readonly bytesByFile: Record<string, number>;
}

/** `pid [epoch-seconds (-ttt)] call(fd<path>...`. */
const callPattern =
  /^(\d+)\s+(?:(\d+\.\d+)\s+)?(write|pwrite64|pwritev2?|writev|fsync|fdatasync)\((\d+)<([^>]*)>(.*)$/;
const resumedPattern = /^(\d+)\s+(?:(\d+\.\d+)\s+)?<\.\.\. (\w+) resumed>.*\)\s+=\s+(-?\d+)/;
const returnPattern = /\)\s+=\s+(-?\d+)/;
const markerPattern = /"([a-z-]+)"/;

export function countStoreSyscalls(
  log: string,
  options: {
    readonly database: string;
    readonly markerFile: string;
    readonly from?: string;
    readonly to?: string;
    /** With `strace -ttt`: only the calls that started within [fromMs, toMs] (epoch ms) count. */
    readonly fromMs?: number;
    readonly toMs?: number;
  },
): StoreSyscalls {
  let inPhase = options.from === undefined;
  let bytes = 0;
  let fsyncs = 0;
  const bytesByFile: Record<string, number> = {};
  const pending = new Map<string, { call: string; path: string; at: number }>();
  const inWindow = (at: number) =>
    Number.isNaN(at) || (at >= (options.fromMs ?? -Infinity) && at <= (options.toMs ?? Infinity));
  const add = (call: string, path: string, result: number, at: number) => {
    if (!inPhase || !inWindow(at) || !path.startsWith(options.database) || result < 0) return;
    if (call === 'fsync' || call === 'fdatasync') {
      fsyncs += 1;
      return;
    }
    const suffix = path.slice(options.database.length);
    bytes += result;
    bytesByFile[suffix] = (bytesByFile[suffix] ?? 0) + result;
  };
  for (const line of log.split('\n')) {
    const call = callPattern.exec(line);
    if (call !== null) {
      const [, pid = '', stamp, name = '', , path = '', rest = ''] = call;
      const at = stamp === undefined ? Number.NaN : Number(stamp) * 1000;
      if (path.includes(options.markerFile)) {
        const phase = markerPattern.exec(rest)?.[1];
        if (phase === options.from) inPhase = true;
        if (phase === options.to) inPhase = false;
        continue;
      }
      if (rest.includes('<unfinished ...>')) {
        pending.set(pid, { call: name, path, at });
        continue;
      }
      add(name, path, Number(returnPattern.exec(rest)?.[1] ?? -1), at);
      continue;
    }
    const resumed = resumedPattern.exec(line);
    if (resumed !== null) {
      const [, pid = '', , , result = '-1'] = resumed;
      const started = pending.get(pid);
      pending.delete(pid);
      if (started !== undefined) add(started.call, started.path, Number(result), started.at);
    }
  }
  return { bytes, fsyncs, bytesByFile };
}
