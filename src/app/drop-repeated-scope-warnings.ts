import type { ProjectKeyStatus } from '../config/index.js';
import type { Logger } from '../ops/index.js';

/** The engine's feed names of the key check's features. */
const feedOfFeature: Readonly<Record<string, string>> = {
  project: 'project',
  supporters: 'fundings',
  wall: 'wall',
  blog: 'blog',
  rewards: 'incentives',
};

/**
 * A logger for the engine that leaves out its "the key lacks <scope>" warning for a
 * feed the start-up key check already reported off (with the variable to fix), so
 * the operator reads each missing scope once. Every other line passes unchanged.
 * `report.projects` may still grow (the checks run while projects already poll): it
 * is read at each warning.
 */
export function dropRepeatedScopeWarnings(
  logger: Logger,
  report: { readonly projects: readonly ProjectKeyStatus[] },
): Logger {
  const reported = new Set<string>();
  let seen = 0;
  const refresh = (): ReadonlySet<string> => {
    for (; seen < report.projects.length; seen++) {
      const p = report.projects[seen] as ProjectKeyStatus;
      for (const [feature, state] of Object.entries(p.features)) {
        if (state === 'off') reported.add(`${p.linkCaption}/${feedOfFeature[feature] ?? feature}`);
      }
    }
    return reported;
  };
  const wrap = (inner: Logger): Logger => ({
    debug: inner.debug.bind(inner),
    info: inner.info.bind(inner),
    error: inner.error.bind(inner),
    warn: ((a: object | string, b?: string) => {
      if (typeof a === 'object' && isScopeWarning(a, b, refresh())) return;
      if (typeof a === 'string') inner.warn(a);
      else inner.warn(a, b);
    }) as Logger['warn'],
    child: (bindings) => wrap(inner.child(bindings)),
  });
  return wrap(logger);
}

function isScopeWarning(fields: object, msg: string | undefined, reported: ReadonlySet<string>): boolean {
  const { project, feed } = fields as { project?: unknown; feed?: unknown };
  return (
    typeof project === 'string' &&
    typeof feed === 'string' &&
    msg !== undefined &&
    / lacks [a-z]+:read/.test(msg) &&
    reported.has(`${project}/${feed}`)
  );
}
