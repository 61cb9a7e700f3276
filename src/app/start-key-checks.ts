import type { ApiClient } from '../api/index.js';
import {
  checkProjectKeys,
  type KeyCheckReport,
  type ProjectConfig,
  type ProjectKeyStatus,
} from '../config/index.js';
import type { Logger } from '../ops/index.js';

/** The start-up key checks, running: each project's own result as soon as it is known. */
export interface RunningKeyChecks {
  /** Resolves with whether `linkCaption` can be polled (enabled or paused) once ITS check is done. */
  ready(linkCaption: string): Promise<boolean>;
  /** The checks done so far (grows while they run): what the start-up already warned about. */
  readonly done: readonly ProjectKeyStatus[];
  /** Every project's result, once all are checked. */
  readonly report: Promise<KeyCheckReport>;
}

/**
 * Starts the key checks of every project with bounded concurrency (64 at once) and a
 * timeout of their own (3 s per project), without waiting for them: a project's first
 * poll waits only for its own check, so 1,000 projects with a few slow answers start
 * polling within seconds instead of after every check in turn.
 *
 * Cost: as checkProjectKeys, 1 request per project (the project read).
 */
export function startKeyChecks(input: {
  readonly api: ApiClient;
  readonly projects: readonly ProjectConfig[];
  readonly logger: Logger;
}): RunningKeyChecks {
  const waiting = new Map<string, (ok: boolean) => void>();
  const promises = new Map<string, Promise<boolean>>();
  for (const p of input.projects) {
    promises.set(p.linkCaption, new Promise<boolean>((resolve) => waiting.set(p.linkCaption, resolve)));
  }
  const done: ProjectKeyStatus[] = [];
  const report = checkProjectKeys({
    api: input.api,
    projects: input.projects.map((p) => ({
      linkCaption: p.linkCaption,
      apiKeyEnv: p.apiKeyEnv,
      apiKey: p.apiKey,
    })),
    logger: input.logger,
    onChecked: (status) => {
      done.push(status);
      waiting.get(status.linkCaption)?.(status.status !== 'disabled');
    },
  });
  // A bug in the check (it never throws for an API answer) must not hold polling for ever.
  void report.catch(() => {
    for (const resolve of waiting.values()) resolve(true);
  });
  return {
    ready: (linkCaption) => promises.get(linkCaption) ?? Promise.resolve(true),
    done,
    report,
  };
}
