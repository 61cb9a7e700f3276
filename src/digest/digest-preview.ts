import type { Locale, NeutralMessage, ProjectReadModel } from '../core/index.js';
import { formatDate } from '../core/index.js';
import type { Clock } from '../lib/clock.js';
import { buildDigest } from './build-digest.js';
import { chartAttachment } from './chart-attachment.js';
import { digestText } from './i18n.js';
import { paceText, renderDigest, staleText } from './render-digest.js';

type MilestonesFor = (project: string) => readonly number[] | undefined;

/** Today's digest data of a project as of now, with the milestones the engine announces for it. */
function buildDigestNow(
  readModel: ProjectReadModel,
  clock: Clock,
  timeZone: string,
  milestonesFor: MilestonesFor,
) {
  return (project: string, locale: Locale) => {
    const milestones = milestonesFor(project);
    return buildDigest({
      readModel,
      project,
      now: clock.now(),
      locale,
      timeZone,
      ...(milestones ? { milestones } : {}),
    });
  };
}

/**
 * For the core's `/digest` command: today's digest of a project, built on
 * demand from the engine's cache (no delivery marker, no posting). `milestonesFor`
 * gives a project's configured milestones, so the digest reports the ones the engine announces.
 */
export function digestPreview(
  readModel: ProjectReadModel,
  clock: Clock,
  timeZone: string,
  milestonesFor: MilestonesFor = () => undefined,
): (project: string, locale: Locale) => Promise<NeutralMessage> {
  const digestNow = buildDigestNow(readModel, clock, timeZone, milestonesFor);
  return async (project, locale) => renderDigest(await digestNow(project, locale), locale);
}

/**
 * For the core's `/chart` command: the digest's funding chart, now, with the
 * pace in words (the chart's text alternative says the rest). Same reads as
 * {@link digestPreview}: the engine's cache and history, an API request only for
 * data older than five minutes.
 */
export function chartPreview(
  readModel: ProjectReadModel,
  clock: Clock,
  timeZone: string,
  milestonesFor: MilestonesFor = () => undefined,
): (project: string, locale: Locale) => Promise<NeutralMessage> {
  const digestNow = buildDigestNow(readModel, clock, timeZone, milestonesFor);
  return async (project, locale) => {
    const data = await digestNow(project, locale);
    const t = digestText(locale);
    const pace = paceText(data.pace, data, t, locale);
    return {
      title: t.chartTitle(data.project.title, formatDate(data.generatedAt, locale, timeZone)),
      ...(data.project.url ? { titleUrl: data.project.url } : {}),
      ...(pace ? { text: pace } : {}),
      image: chartAttachment(data, locale),
      ...(data.stale.length > 0 ? { footer: t.staleFooter(staleText(data, locale)) } : {}),
      tone: data.stale.length > 0 ? 'warning' : 'info',
    };
  };
}
