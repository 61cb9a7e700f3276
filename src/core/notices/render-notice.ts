import type { FundbotEvent } from '../../domain/events.js';
import {
  displayName,
  normalizeWhitespace,
  safeHttpUrl,
  shorten,
  singleLine,
  visibleLine,
} from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import { formatMoney, formatNumber, formatPercent, progressToward } from '../format.js';
import { catalogFor } from '../i18n/index.js';
import type { MessageField, NeutralMessage } from '../message.js';
import { projectStatusLabel } from '../project-status-label.js';
import { renderFeedHealth } from './feed-health-notice.js';
import { namesLine, renderBatch, renderCorrection, renderNamesContinued } from './render-batch.js';
import { renderDailyThread } from './render-daily-thread.js';

/**
 * Renders an engine event as a notice. Pure and synchronous: the router calls
 * it once per locale and event, whatever the number of channels.
 *
 * Every piece of event text is untrusted (display names, wall messages, blog
 * titles): it goes through singleLine/shorten so it is plain and bounded, and
 * it never becomes a link. The only link is a blog post's URL from the API,
 * and only when it is an absolute http(s) URL. Times are written on the clock of
 * `timeZone`, the channel's (see CommandCore.timeZoneFor), with the zone's name.
 */
export function renderNotice(event: FundbotEvent, locale: Locale, timeZone: string): NeutralMessage {
  const t = catalogFor(locale);
  const footer = t.notices.footer(singleLine(event.project, limits.title));
  const name = (raw: string) => displayName(raw, limits.name, t.common.someone);
  // In a list a name that shows nothing is left out and counted in "and N more".
  const listedName = (raw: string) => displayName(raw, limits.name, '');
  const money = (amount: number, currency: string) => formatMoney(amount, currency, locale);

  switch (event.type) {
    case 'notice-batch':
      return renderBatch(event, locale, timeZone);
    case 'names-continued':
      return renderNamesContinued(event, locale);
    case 'daily-thread':
      return renderDailyThread(event, locale);
    case 'feed-health':
      return renderFeedHealth(event, locale, timeZone);
    case 'support-dropped':
    case 'post-deleted':
      return renderCorrection(event, locale);
    case 'supporter': {
      const parts: string[] = [];
      // `?? null`: events stored in an outbox before supporterCount existed lack the field.
      const count = event.supporterCount ?? null;
      if (count !== null) parts.push(t.notices.supporterCountNow(formatNumber(count, locale)));
      if (event.fundingTotal !== null) parts.push(t.notices.total(money(event.fundingTotal, event.currency)));
      return {
        title: t.notices.supporter(name(event.displayName)),
        ...(parts.length > 0 ? { text: parts.join(' · ') } : {}),
        tone: 'success',
        footer,
      };
    }
    case 'supporter-burst': {
      const names =
        event.restNamedIn === undefined
          ? namesWithMore(event.displayNames.map(listedName), event.count, locale)
          : namesLine(event.displayNames, event.count, event.restNamedIn, locale);
      const lines = [names];
      const figures: string[] = [];
      const count = event.supporterCount ?? null;
      if (count !== null) figures.push(t.notices.supporterCountNow(formatNumber(count, locale)));
      if (event.fundingTotal !== null)
        figures.push(t.notices.total(money(event.fundingTotal, event.currency)));
      if (figures.length > 0) lines.push(figures.join(' · '));
      return {
        title: t.notices.supporterBurst(event.count, formatNumber(event.count, locale)),
        text: lines.filter((l) => l !== '').join('\n'),
        tone: 'success',
        footer,
      };
    }
    case 'wall-post':
      return {
        title: t.notices.wallPost(name(event.author)),
        text: shorten(normalizeWhitespace(event.message), limits.wallMessage),
        tone: 'info',
        footer,
      };
    case 'wall-post-burst': {
      // Counted by author, not by post: "By A, B and 2 more" means two more people.
      const unique = uniqueNames(event.authors.map(listedName));
      const authors = namesWithMore(unique, unique.length, locale);
      return {
        title: t.notices.wallPostBurst(event.count, formatNumber(event.count, locale)),
        ...(authors ? { text: t.notices.wallPostBurstBy(authors) } : {}),
        tone: 'info',
        footer,
      };
    }
    case 'blog-post': {
      const link = safeHttpUrl(event.link);
      const teaser = shorten(normalizeWhitespace(event.teaser), limits.teaser);
      const fields: MessageField[] = [
        {
          name: t.notices.fieldType,
          value: event.blogType === 'story' ? t.blog.story : t.blog.text,
          inline: true,
        },
      ];
      return {
        title: t.notices.blogPost(visibleLine(event.title, limits.title, t.common.untitled)),
        ...(link ? { titleUrl: link, links: [{ label: t.notices.readPost, url: link }] } : {}),
        ...(teaser ? { text: teaser } : {}),
        ...(event.supporterOnly ? { badge: t.common.supportersOnly } : {}),
        fields,
        tone: 'info',
        footer,
      };
    }
    case 'milestone': {
      const funding = t.funding.amountOfGoal(
        money(event.funding, event.currency),
        money(event.goal, event.currency),
      );
      return {
        title: event.goalReached
          ? t.notices.goalReached
          : t.notices.milestone(formatPercent(event.percent, locale)),
        text: event.goalReached ? `${t.notices.goalReachedText}\n${funding}` : funding,
        // The bar once, drawn by the adapter with its label: never again in a field.
        progress: progressToward(event.funding, event.goal, locale),
        tone: 'success',
        footer,
      };
    }
    case 'reward-sold-out':
      // The title says "Sold out": no badge saying it again.
      return {
        title: t.notices.rewardSoldOut(visibleLine(event.title, limits.title, t.common.untitled)),
        text: t.notices.rewardPrice(money(event.price, event.currency)),
        tone: 'warning',
        footer,
      };
    case 'reward-unlocked':
      return {
        title: t.notices.rewardUnlocked(visibleLine(event.title, limits.title, t.common.untitled)),
        text: t.notices.rewardPrice(money(event.price, event.currency)),
        tone: 'success',
        footer,
      };
    case 'reward-restocked': {
      const price = t.notices.rewardPrice(money(event.price, event.currency));
      const left =
        event.remaining === null
          ? undefined
          : t.rewardStock.left(event.remaining, formatNumber(event.remaining, locale));
      return {
        title: t.rewardStock.restocked(visibleLine(event.title, limits.title, t.common.untitled)),
        text: left ? `${price} · ${left}` : price,
        tone: 'success',
        footer,
      };
    }
    case 'reward-low-stock':
      return {
        title: t.rewardStock.lowStock(
          event.remaining,
          formatNumber(event.remaining, locale),
          visibleLine(event.title, limits.title, t.common.untitled),
        ),
        text: t.notices.rewardPrice(money(event.price, event.currency)),
        tone: 'warning',
        footer,
      };
    case 'project-status': {
      const to = projectStatusLabel(t, event.to);
      return {
        title:
          event.from === null
            ? t.notices.projectStatus(to)
            : t.notices.projectStatusChange(projectStatusLabel(t, event.from), to),
        tone: event.to === 'successful' || event.to === 'payoff' ? 'success' : 'info',
        footer,
      };
    }
    case 'watching': {
      return {
        title: t.notices.watching(singleLine(event.title, limits.title)),
        ...(event.goal > 0 ? { progress: progressToward(event.funding, event.goal, locale) } : {}),
        fields: [
          {
            name: t.funding.fieldFunding,
            value:
              event.goal > 0
                ? t.funding.amountOfGoal(
                    money(event.funding, event.currency),
                    money(event.goal, event.currency),
                  )
                : t.funding.noGoal(money(event.funding, event.currency)),
            inline: true,
          },
          {
            name: t.funding.fieldSupporters,
            value: formatNumber(event.supporters, locale),
            inline: true,
          },
        ],
        tone: 'info',
        footer,
      };
    }
  }
}

function uniqueNames(names: readonly string[]): string[] {
  return [...new Set(names.filter((n) => n !== ''))];
}

/**
 * "A, B, C and 9 more": at most a few names, the rest counted. `total` is how
 * many the names stand for (a burst's count); names beyond the limit are counted too.
 */
function namesWithMore(names: readonly string[], total: number, locale: Locale): string {
  const t = catalogFor(locale);
  const shown = names.filter((n) => n !== '').slice(0, limits.burstNames);
  if (shown.length === 0) return '';
  const more = Math.max(0, Math.max(total, names.length) - shown.length);
  return more > 0 ? t.common.andMore(shown.join(', '), more) : t.common.list(shown);
}
