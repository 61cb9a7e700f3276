import type { ApiClient, Project } from '../api/index.js';
import {
  checkProjectKeys,
  type KeyCheckReport,
  type ProjectConfig,
  type ProjectKeyStatus,
} from '../config/index.js';
import type { Logger } from '../ops/index.js';

/**
 * When a project's start-up key check runs:
 * - `all` (one process, which polls every project): every check starts at once;
 * - `when-held` (replicas on a shared store): a project's check starts when this replica takes its lease
 *   ({@link RunningKeyChecks.check}). Only the replica that polls a project needs its check: with every replica
 *   checking every key, three replicas of 1,000 projects each sent 6,000 requests (22% of the first polls'
 *   requests) and spent about 2 s of CPU each on projects the others poll (bench scaleRedis).
 */
export type KeyCheckStart = 'all' | 'when-held';

/** The start-up key checks, running: each project's own result as soon as it is known. */
export interface RunningKeyChecks {
  /** Resolves with whether `linkCaption` can be polled (enabled or paused) once ITS check is done. */
  ready(linkCaption: string): Promise<boolean>;
  /** Starts the checks of these projects that have not started yet (`when-held`: this replica took their leases). */
  check(linkCaptions: readonly string[]): void;
  /** True once `linkCaption`'s check found it cannot be read at all (not found, plan below Pro): not to be polled. */
  isDisabled(linkCaption: string): boolean;
  /**
   * The project as its check read it with its key, once (then forgotten): the engine's first project poll takes
   * it instead of sending the same request again (1 request of the 7 of a project's first poll).
   */
  takeCheckedRead(linkCaption: string): Project | undefined;
  /** The code the check had the key refused with, once (then forgotten): the engine starts the project paused. */
  takeRejection(linkCaption: string): ProjectKeyStatus['rejected'];
  /** The checks done so far (grows while they run): what the start-up already warned about. */
  readonly done: readonly ProjectKeyStatus[];
  /** The report of every check started so far, once they are all done (with `all`: every project). */
  settled(): Promise<KeyCheckReport>;
}

/**
 * Starts the key checks with bounded concurrency (64 at once) and a timeout of their own
 * (3 s per project), without waiting for them: a project's first poll waits only for its own
 * check, so 1,000 projects with a few slow answers start polling within seconds instead of
 * after every check in turn.
 *
 * Cost: as checkProjectKeys, 1 request per project checked (the project read).
 */
export function startKeyChecks(input: {
  readonly api: ApiClient;
  readonly projects: readonly ProjectConfig[];
  readonly logger: Logger;
  readonly start?: KeyCheckStart;
}): RunningKeyChecks {
  const waiting = new Map<string, (ok: boolean) => void>();
  const promises = new Map<string, Promise<boolean>>();
  for (const p of input.projects) {
    promises.set(p.linkCaption, new Promise<boolean>((resolve) => waiting.set(p.linkCaption, resolve)));
  }
  const done: ProjectKeyStatus[] = [];
  const disabled = new Set<string>();
  const reads = new Map<string, Project>();
  const rejections = new Map<string, NonNullable<ProjectKeyStatus['rejected']>>();
  const started = new Set<string>();
  const batches: Promise<KeyCheckReport>[] = [];
  const check = (linkCaptions: readonly string[]) => {
    const wanted = new Set(linkCaptions.filter((lc) => !started.has(lc)));
    const projects = input.projects.filter((p) => wanted.has(p.linkCaption));
    if (projects.length === 0) return;
    for (const p of projects) started.add(p.linkCaption);
    const report = checkProjectKeys({
      api: input.api,
      projects: projects.map((p) => ({
        linkCaption: p.linkCaption,
        apiKeyEnv: p.apiKeyEnv,
        apiKey: p.apiKey,
      })),
      logger: input.logger,
      onChecked: (status, read) => {
        done.push(status);
        if (status.status === 'disabled') disabled.add(status.linkCaption);
        if (status.status === 'enabled' && read !== undefined) reads.set(status.linkCaption, read);
        if (status.rejected !== undefined) rejections.set(status.linkCaption, status.rejected);
        waiting.get(status.linkCaption)?.(status.status !== 'disabled');
      },
    });
    // A bug in the check (it never throws for an API answer) must not hold polling for ever.
    void report.catch(() => {
      for (const p of projects) waiting.get(p.linkCaption)?.(true);
    });
    batches.push(report);
  };
  if ((input.start ?? 'all') === 'all') check(input.projects.map((p) => p.linkCaption));
  return {
    ready: (linkCaption) => promises.get(linkCaption) ?? Promise.resolve(true),
    check,
    isDisabled: (linkCaption) => disabled.has(linkCaption),
    takeCheckedRead(linkCaption) {
      const read = reads.get(linkCaption);
      reads.delete(linkCaption);
      return read;
    },
    takeRejection(linkCaption) {
      const code = rejections.get(linkCaption);
      rejections.delete(linkCaption);
      return code;
    },
    done,
    async settled() {
      const reports = await Promise.all(batches);
      return {
        projects: reports.flatMap((r) => r.projects),
        enabled: reports.flatMap((r) => r.enabled),
        paused: reports.flatMap((r) => r.paused),
        warnings: reports.flatMap((r) => r.warnings),
      };
    },
  };
}

/**
 * The report the configuration is judged on at start ("no configured project can be read"). With `when-held`
 * it covers the projects this replica holds; when none of them can be read, the others are checked too, so the
 * verdict is never drawn from a part of them. Empty when a replica holds nothing yet: nothing to judge.
 */
export async function startupReport(
  checks: RunningKeyChecks,
  configured: readonly string[],
): Promise<KeyCheckReport> {
  const report = await checks.settled();
  if (report.projects.length === 0 || report.enabled.length + report.paused.length > 0) return report;
  checks.check(configured);
  return checks.settled();
}
