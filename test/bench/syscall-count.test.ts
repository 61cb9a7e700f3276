import { describe, expect, it } from 'vitest';
import { checkpointEnds, countStoreSyscalls } from '../../bench/syscall-count.js';

const db = '/tmp/x/data/fundbot.sqlite';

describe('countStoreSyscalls on an strace -ttt log', () => {
  it('counts only the database files within the time window, joining a call another thread resumed', () => {
    const log = [
      `100 1700000000.100000 pwrite64(21<${db}-wal>, "..."..., 4120, 0) = 4120`,
      `100 1700000001.000000 pwrite64(21<${db}-wal>, "..."..., 4120, 4120) = 4120`,
      `101 1700000001.500000 write(22<${db}>, "..."..., 4096 <unfinished ...>`,
      `100 1700000001.600000 write(1<pipe:[123]>, "log line\\n", 9) = 9`,
      `101 1700000001.700000 <... write resumed>) = 4096`,
      `101 1700000001.800000 fdatasync(21<${db}-wal>) = 0`,
      `100 1700000003.000000 pwrite64(21<${db}-wal>, "..."..., 4120, 8240) = 4120`,
    ].join('\n');
    const counted = countStoreSyscalls(log, {
      database: db,
      markerFile: '\0none',
      fromMs: 1_700_000_000_500,
      toMs: 1_700_000_002_000,
    });
    expect(counted).toEqual({ bytes: 8216, fsyncs: 1, bytesByFile: { '-wal': 4120, '': 4096 } });
  });

  it('still reads a log without timestamps (every call counts)', () => {
    const log = `100 pwrite64(21<${db}-wal>, "..."..., 4120, 0) = 4120\n100 fsync(21<${db}-wal>) = 0`;
    expect(countStoreSyscalls(log, { database: db, markerFile: '\0none' })).toEqual({
      bytes: 4120,
      fsyncs: 1,
      bytesByFile: { '-wal': 4120 },
    });
  });

  it('finds where each WAL checkpoint ended: the runs of calls on the database file itself', () => {
    const log = [
      `100 1700000000.000000 pwrite64(21<${db}-wal>, "..."..., 536, 0) = 536`,
      `101 1700000060.000000 pwrite64(22<${db}>, "..."..., 512, 0) = 512`,
      `101 1700000060.010000 pwrite64(22<${db}>, "..."..., 512, 512 <unfinished ...>`,
      `100 1700000060.011000 pwrite64(21<${db}-wal>, "..."..., 536, 536) = 536`,
      `101 1700000060.020000 <... pwrite64 resumed>) = 512`,
      `101 1700000060.030000 fsync(22<${db}>) = 0`,
      `100 1700000070.000000 pwrite64(21<${db}-wal>, "..."..., 536, 0) = 536`,
      `101 1700000121.000000 pwrite64(22<${db}>, "..."..., 512, 0) = 512`,
      `101 1700000121.500000 fsync(22<${db}>) = 0`,
      `101 1700000130.000000 write(23<${db}.marker.tmp>, "ok", 2) = 2`,
    ].join('\n');
    expect(checkpointEnds(log, { database: db, markerFile: '\0none' })).toEqual([
      1_700_000_060_030, 1_700_000_121_500,
    ]);
  });
});
