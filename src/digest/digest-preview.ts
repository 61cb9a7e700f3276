import type { Locale, NeutralMessage, ProjectReadModel } from '../core/index.js';
import { formatDate } from '../core/index.js';
import type { Clock } from '../lib/clock.js';
import { buildDigest, type DigestData } from './build-digest.js';
import { chartAttachment } from './chart-attachment.js';
import { digestText } from './i18n.js';
import { paceText, renderDigest, staleText } from './render-digest.js';

/** A project's configured milestones, so a preview reports the ones the engine announces. */
type MilestonesFor = (project: string) => readonly number[] | undefined;
type Preview = (project: string, locale: Locale) => Promise<NeutralMessage>;

/**
 * A command's preview of today's digest, built on demand from the engine's cache and history (no delivery marker,
 * no posting; an API request only for data older than five minutes), rendered by `render`.
 */
function previewOfToday(render: (data: DigestData, locale: Locale, timeZone: string) => NeutralMessage) {
  return (
    readModel: ProjectReadModel,
    clock: Clock,
    timeZone: string,
    milestonesFor: MilestonesFor = () => undefined,
  ): Preview =>
    async (project, locale) => {
      const milestones = milestonesFor(project);
      const data = await buildDigest({
        readModel,
        project,
        now: clock.now(),
        locale,
        timeZone,
        ...(milestones ? { milestones } : {}),
      });
      return render(data, locale, timeZone);
    };
}

/** For the core's `/digest` command: today's digest of a project as it would be posted now. */
export const digestPreview = previewOfToday((data, locale) => renderDigest(data, locale));

/**
 * For the core's `/chart` command: the digest's funding chart, now, with the pace in words (the chart's text
 * alternative says the rest).
 */
export const chartPreview = previewOfToday((data, locale, timeZone) => {
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
});
