import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { type ApiClient, parseProjectKey } from '../api/index.js';
import { checkProjectKeys, describeWrappedKey, type ProjectConfig } from '../config/index.js';
import type { Logger } from '../ops/index.js';
import type { KeyRing } from './replaceable-keys.js';

export interface KeyFileWatchOptions {
  readonly projects: readonly ProjectConfig[];
  readonly ring: KeyRing;
  /** The client without the ring (the new key is checked on its own). */
  readonly api: ApiClient;
  readonly logger: Logger;
  /** How often each file's mtime is compared (default 5 s): a stat, no API request. */
  readonly intervalMs?: number;
  /** Told after a new key was swapped in (the engine then re-checks the project at once). */
  readonly onReplaced?: (linkCaption: string) => void;
}

/**
 * Picks up a replaced key file (`<apiKeyEnv>_FILE`, a Docker or Kubernetes secret)
 * without a restart: on a change the new key is validated (format, then the
 * start-up key check: 1 request) and swapped in only when the API
 * accepts it for that project; otherwise the old key stays and an error says why.
 * Polls the file's stat instead of fs.watch because Kubernetes replaces secrets by
 * swapping a symlink, which fs.watch loses track of.
 */
export function watchKeyFiles(options: KeyFileWatchOptions): { stop(): void } {
  const { ring, api, logger } = options;
  const interval = options.intervalMs ?? 5_000;
  const watched: string[] = [];
  for (const project of options.projects) {
    const path = project.apiKeyFile;
    if (path === undefined) continue;
    let checking = Promise.resolve();
    const onChange = (now: { mtimeMs: number }, before: { mtimeMs: number }) => {
      if (now.mtimeMs === before.mtimeMs) return;
      checking = checking.then(() => reload(project, path));
    };
    watchFile(path, { interval, persistent: false }, onChange);
    watched.push(path);
  }

  async function reload(project: ProjectConfig, path: string): Promise<void> {
    const lc = project.linkCaption;
    const fileVar = `${project.apiKeyEnv}_FILE`;
    let raw: string;
    try {
      raw = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      logger.error(
        { project: lc, file: path, code },
        `the key file of ${lc} (${fileVar}) cannot be read: the previous key stays in use; check the mounted secret`,
      );
      return;
    }
    const wrapped = describeWrappedKey(raw);
    let next: ReturnType<typeof parseProjectKey>;
    try {
      if (wrapped !== undefined) throw new Error(`the key ${wrapped}`);
      next = parseProjectKey(raw);
    } catch (error) {
      logger.error(
        { project: lc, file: path, problem: error instanceof Error ? error.message : 'invalid' },
        `the new key file of ${lc} (${fileVar}) does not hold a valid Project API key: the previous key stays in use`,
      );
      return;
    }
    const report = await checkProjectKeys({
      api,
      projects: [{ linkCaption: lc, apiKeyEnv: fileVar, apiKey: next }],
    });
    const status = report.projects[0];
    if (status?.status !== 'enabled') {
      logger.error(
        { project: lc, file: path, findings: report.warnings },
        `the new key of ${lc} (${fileVar}) was refused by the API: the previous key stays in use`,
      );
      return;
    }
    ring.replace(project.apiKey, next);
    options.onReplaced?.(lc);
    for (const warning of report.warnings) logger.warn(warning);
    logger.info(
      { project: lc, file: path },
      `the key of ${lc} was replaced from ${fileVar}: polling goes on with it`,
    );
  }

  return {
    stop() {
      for (const path of watched) unwatchFile(path);
    },
  };
}
