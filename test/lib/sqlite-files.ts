import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * SQLite store files in one temporary folder for a describe block: the folder is made before its first test and
 * removed after its last. `url(name)` is the store URL of the file `name` in it.
 */
export function sqliteFilesPerBlock(folderPrefix: string): { url(name: string): string } {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), folderPrefix));
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    url(name) {
      if (dir === undefined) throw new Error('the SQLite folder is read before the block started');
      return `sqlite://${join(dir, name)}`;
    },
  };
}
