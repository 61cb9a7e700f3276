import { isGatedPost, publicTeaser } from '../../api/index.js';
import { displayName, htmlToPlainText, shorten, singleLine, visibleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { formatAge } from '../format.js';
import type { MessageField, NeutralMessage } from '../message.js';
import { resolveProject } from '../resolve-project.js';
import { formatDate } from '../time-format.js';
import { type CommandRun, freshnessFooter, readOrRefuse } from './command-run.js';

/** /supporters: the latest public supporters with display name and how long ago. */
export async function supportersCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const watched = await resolveProject(run);
  const cached = await readOrRefuse(
    run,
    () => run.deps.readModel.recentSupporters(watched.linkCaption, limits.supportersShown),
    (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
  );
  const lines = cached.value
    .slice(0, limits.supportersShown)
    .map((f) =>
      t.supporters.line(
        displayName(f.user.display_name, limits.name, t.common.someone),
        formatAge(run.now - f.support_timestamp * 1000, run.locale),
      ),
    );
  return {
    title: t.supporters.title(singleLine(watched.title, limits.title)),
    text: lines.length > 0 ? lines.join('\n') : t.supporters.none,
    footer: freshnessFooter(run, cached),
    tone: cached.staleBecause !== undefined ? 'warning' : 'info',
  };
}

/**
 * /blog: the latest posts. A supporter-only post shows only its public teaser
 * (`description`) with a badge: its `text` is never read, whatever the API sent.
 */
export async function blogCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t, locale } = run;
  const watched = await resolveProject(run);
  const cached = await readOrRefuse(
    run,
    () => run.deps.readModel.recentBlogPosts(watched.linkCaption, limits.postsShown),
    (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
  );
  const fields: MessageField[] = cached.value.slice(0, limits.postsShown).map((post) => {
    const gated = isGatedPost(post);
    const teaser =
      shorten(htmlToPlainText(publicTeaser(post)), limits.listTeaser) ||
      (gated ? t.blog.teaserUnavailable : '');
    const meta = t.blog.meta(
      post.type === 'story' ? t.blog.story : t.blog.text,
      formatDate(post.release_timestamp * 1000, locale, run.timeZone),
      post.reading_time_minutes,
    );
    const title = visibleLine(post.title, limits.title, t.common.untitled);
    return {
      name: gated ? `${title} · 🔒 ${t.common.supportersOnly}` : title,
      value: teaser ? `${meta}\n${teaser}` : meta,
      inline: false,
    };
  });
  return {
    title: t.blog.title(singleLine(watched.title, limits.title)),
    ...(fields.length === 0 ? { text: t.blog.none } : {}),
    fields,
    footer: freshnessFooter(run, cached),
    tone: cached.staleBecause !== undefined ? 'warning' : 'info',
  };
}
