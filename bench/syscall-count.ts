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

/** One write or sync call on a file of the database, as strace logged it. */
interface StoreCall {
  /** Epoch ms the call started (NaN in a log without `-ttt`). */
  readonly at: number;
  readonly sync: boolean;
  /** '' for the database itself, '-wal', '-journal'... */
  readonly suffix: string;
  /** Bytes written (0 for a sync). */
  readonly bytes: number;
}

/** Which calls of a trace are the database's: its path, and the marker file and phases that cut the trace. */
export interface StoreTraceOptions {
  readonly database: string;
  readonly markerFile: string;
  readonly from?: string;
  readonly to?: string;
}

/**
 * The successful write and sync calls on `database`'s files, in log order, within the marker
 * phase [`from`, `to`] when given. A call split by another thread is joined by pid.
 */
function* storeCalls(log: string, options: StoreTraceOptions): Generator<StoreCall> {
  let inPhase = options.from === undefined;
  const pending = new Map<string, { call: string; path: string; at: number }>();
  const made = (call: string, path: string, result: number, at: number): StoreCall | undefined => {
    if (!inPhase || !path.startsWith(options.database) || result < 0) return undefined;
    const sync = call === 'fsync' || call === 'fdatasync';
    return { at, sync, suffix: path.slice(options.database.length), bytes: sync ? 0 : result };
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
      const counted = made(name, path, Number(returnPattern.exec(rest)?.[1] ?? -1), at);
      if (counted !== undefined) yield counted;
      continue;
    }
    const resumed = resumedPattern.exec(line);
    if (resumed !== null) {
      const [, pid = '', , , result = '-1'] = resumed;
      const started = pending.get(pid);
      pending.delete(pid);
      const counted = started && made(started.call, started.path, Number(result), started.at);
      if (counted) yield counted;
    }
  }
}

export function countStoreSyscalls(
  log: string,
  options: StoreTraceOptions & {
    /** With `strace -ttt`: only the calls that started within [fromMs, toMs] (epoch ms) count. */
    readonly fromMs?: number;
    readonly toMs?: number;
  },
): StoreSyscalls {
  let bytes = 0;
  let fsyncs = 0;
  const bytesByFile: Record<string, number> = {};
  const inWindow = (at: number) =>
    Number.isNaN(at) || (at >= (options.fromMs ?? -Infinity) && at <= (options.toMs ?? Infinity));
  for (const call of storeCalls(log, options)) {
    if (!inWindow(call.at)) continue;
    if (call.sync) {
      fsyncs += 1;
      continue;
    }
    bytes += call.bytes;
    bytesByFile[call.suffix] = (bytesByFile[call.suffix] ?? 0) + call.bytes;
  }
  return { bytes, fsyncs, bytesByFile };
}

/** Calls on the database file this close together belong to one checkpoint. */
const CHECKPOINT_GAP_MS = 2_000;

/**
 * When each WAL checkpoint ended (epoch ms, needs `-ttt`): in WAL mode the database file itself is
 * written only when a checkpoint copies the WAL's pages back, then synced, so each run of calls on
 * the file (write or sync, no two more than {@link CHECKPOINT_GAP_MS} apart) is one checkpoint, and
 * it ends at its last call. A window from one checkpoint's end to a later one's holds whole
 * checkpoint periods: every commit in it, and every checkpoint that carried them to the file.
 */
export function checkpointEnds(log: string, options: StoreTraceOptions): number[] {
  const ends: number[] = [];
  for (const call of storeCalls(log, options)) {
    if (call.suffix !== '' || Number.isNaN(call.at)) continue;
    const last = ends.at(-1);
    if (last !== undefined && call.at - last <= CHECKPOINT_GAP_MS) ends[ends.length - 1] = call.at;
    else ends.push(call.at);
  }
  return ends;
}
