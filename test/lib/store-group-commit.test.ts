import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/lib/store-group-commit.js';

/** A commit that records each batch; `failNext` makes the next one throw. */
function recordingCommit() {
  const batches: string[][] = [];
  let failNext = false;
  return {
    batches,
    fail() {
      failNext = true;
    },
    commit(batch: readonly string[]): string[] {
      if (failNext) {
        failNext = false;
        throw new Error('disk full');
      }
      batches.push([...batch]);
      return batch.map((w) => `done:${w}`);
    },
  };
}

describe('group commit', () => {
  it('writes issued in one tick share one transaction; each resolves only after it committed', async () => {
    const log = recordingCommit();
    const commits = groupCommit<string, string>({ commit: (b) => log.commit(b) });
    const settledBeforeCommit: string[] = [];
    const writes = ['a', 'b', 'c'].map((w) =>
      commits.write(w).then((result) => {
        // A write's promise settles after its batch is recorded, never before.
        if (!log.batches.some((batch) => batch.includes(w))) settledBeforeCommit.push(w);
        return result;
      }),
    );
    expect(log.batches).toEqual([]);
    expect(await Promise.all(writes)).toEqual(['done:a', 'done:b', 'done:c']);
    expect(log.batches).toEqual([['a', 'b', 'c']]);
    expect(settledBeforeCommit).toEqual([]);
  });

  it('a failed transaction rejects every write in it, and the next batch commits on its own', async () => {
    const log = recordingCommit();
    const commits = groupCommit<string, string>({ commit: (b) => log.commit(b) });
    log.fail();
    const failed = await Promise.allSettled([commits.write('a'), commits.write('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failed.map((r) => (r.status === 'rejected' ? String(r.reason) : ''))).toEqual([
      'Error: disk full',
      'Error: disk full',
    ]);
    expect(await commits.write('c')).toBe('done:c');
    expect(log.batches).toEqual([['c']]);
  });

  it('keeps the order of writes across batches and caps a batch at maxBatch', async () => {
    const log = recordingCommit();
    const commits = groupCommit<string, string>({ commit: (b) => log.commit(b), maxBatch: 2 });
    const first = ['1', '2', '3'].map((w) => commits.write(w));
    await Promise.all(first);
    const second = commits.write('4');
    expect(commits.pending()).toEqual(['4']);
    await second;
    expect(log.batches).toEqual([['1', '2'], ['3'], ['4']]);
  });

  it('flush commits what is queued at once', async () => {
    const log = recordingCommit();
    const commits = groupCommit<string, string>({ commit: (b) => log.commit(b), windowMs: 60_000 });
    const write = commits.write('a');
    await commits.flush();
    expect(log.batches).toEqual([['a']]);
    expect(await write).toBe('done:a');
  });
});
