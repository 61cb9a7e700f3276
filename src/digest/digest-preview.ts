import type { Locale, NeutralMessage, ProjectReadModel } from '../core/index.js';
import type { Clock } from '../lib/clock.js';
import { buildDigest } from './build-digest.js';
import { renderDigest } from './render-digest.js';

/**
 * For the core's `/digest` command: today's digest of a project, built on
 * demand from the engine's cache (no delivery marker, no posting). `milestonesFor`
 * gives a project's configured milestones, so the digest reports the ones the engine announces.
 */
export function digestPreview(
  readModel: ProjectReadModel,
  clock: Clock,
  timeZone: string,
  milestonesFor: (project: string) => readonly number[] | undefined = () => undefined,
): (project: string, locale: Locale) => Promise<NeutralMessage> {
  return async (project, locale) => {
    const milestones = milestonesFor(project);
    const data = await buildDigest({
      readModel,
      project,
      now: clock.now(),
      locale,
      timeZone,
      ...(milestones ? { milestones } : {}),
    });
    return renderDigest(data, locale);
  };
}
