import type { Locale, MessageField, NeutralMessage } from '../core/index.js';
import {
  catalogFor,
  formatClock,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  localTime,
  noteText,
  progressToward,
} from '../core/index.js';
import { displayName, visibleLine } from '../domain/text.js';
import { limits } from '../domain/text-limits.js';
import type { DigestData, DigestPace } from './build-digest.js';
import { chartAttachment } from './chart-attachment.js';
import { type DigestCatalog, digestText } from './i18n.js';
import type { FundingChartOptions } from './render-funding-chart.js';

function signed(value: string, n: number): string {
  return n > 0 ? `+${value}` : value;
}

/**
 * A list field: the first entries as a bulleted list (each platform draws its own
 * bullets), the rest counted in a last entry ("… and 3 more").
 */
function listField(name: string, lines: readonly string[], t: DigestCatalog, locale: Locale): MessageField {
  const more = lines.length - limits.digestListItems;
  const items = lines.slice(0, limits.digestListItems);
  return { name, value: '', items: more > 0 ? [...items, t.andMore(formatNumber(more, locale))] : items };
}

/** Why some of the digest's data is stale, in the channel's language ("; " between reasons). */
export function staleText(data: DigestData, locale: Locale): string {
  const t = catalogFor(locale);
  return data.stale.map((n) => noteText(n, t, locale, data.timeZone)).join('; ');
}

export function paceText(
  pace: DigestPace,
  data: DigestData,
  t: DigestCatalog,
  locale: Locale,
): string | undefined {
  switch (pace.kind) {
    case 'no-goal':
      return undefined;
    case 'goal-reached':
      return t.paceGoalReached;
    case 'unknown':
      return t.paceUnknown;
    case 'no-supports':
      return t.paceNoSupports;
    case 'eta': {
      const date = formatDate(pace.at, locale, data.timeZone);
      const perDay = formatMoney(pace.perDay, data.project.currency, locale);
      return pace.basisDays >= 6.99
        ? t.paceEta(date, perDay)
        : t.paceEtaShortBasis(date, perDay, formatNumber(Math.max(1, pace.basisDays), locale, 0));
    }
  }
}

/**
 * The window's real start when it is shorter than 24 hours, in the channel's
 * language on the digest zone's clock: "14:05 CET" the same day, with the date
 * when it began the day before. Undefined for a full 24-hour window.
 */
function windowStartText(data: DigestData, locale: Locale): string | undefined {
  if (data.window.full) return undefined;
  const { sinceMs } = data.window;
  return localTime(sinceMs, data.timeZone).date === data.date
    ? formatClock(sinceMs, locale, data.timeZone)
    : formatDateTime(sinceMs, locale, data.timeZone);
}

/**
 * Renders a digest as a neutral message in `locale`, with the funding chart as
 * a PNG attachment. All user text in `data` is already single-line plain text;
 * adapters escape it for their platform.
 */
export function renderDigest(
  data: DigestData,
  locale: Locale = data.locale,
  chartOptions: FundingChartOptions = {},
): NeutralMessage {
  const t = digestText(locale);
  const money = (n: number) => formatMoney(n, data.project.currency, locale);
  const { funding, change } = data;
  const fields: MessageField[] = [];

  fields.push({
    name: t.fieldTotal,
    value: `${
      funding.goal > 0
        ? t.totalOfGoal(money(funding.current), money(funding.goal), formatPercent(funding.percent, locale))
        : t.totalNoGoal(money(funding.current))
    } · ${t.supporterCount(formatNumber(funding.supporters, locale))}`,
    inline: true,
  });

  // The window is named wherever a figure is counted over it: "the last 24 hours" only when it is.
  const start = windowStartText(data, locale);
  const windowText = start ? t.windowSince(start) : t.windowLast24h;
  let summary = t.summaryUnknown;
  if (change) {
    fields.push({
      name: start ? t.fieldWindowSince(start) : t.fieldWindowLast24h,
      value: t.changeValue(
        signed(money(change.funding), change.funding),
        signed(t.supporterCount(formatNumber(change.supporters, locale)), change.supporters),
      ),
      inline: true,
    });
    summary =
      change.funding !== 0 || change.supporters !== 0
        ? t.summaryChange(
            signed(money(change.funding), change.funding),
            t.supporterCount(formatNumber(change.supporters, locale)),
            windowText,
          )
        : t.summaryNoChange(windowText);
  }

  if (data.milestones.length > 0) {
    fields.push({
      name: t.fieldMilestones,
      value: t.milestonesValue(data.milestones.map((m) => formatPercent(m, locale)).join(', ')),
    });
  }

  const pace = paceText(data.pace, data, t, locale);
  if (pace) fields.push({ name: t.fieldPace, value: pace });

  if (data.rewardsSold === null) {
    fields.push({ name: t.fieldRewardsSold, value: t.unavailable });
  } else if (data.rewardsSold.length > 0) {
    fields.push(
      listField(
        t.fieldRewardsSold,
        data.rewardsSold.map((r) => t.rewardSoldLine(formatNumber(r.sold, locale), r.title)),
        t,
        locale,
      ),
    );
  }
  if (data.soldOut && data.soldOut.length > 0) {
    fields.push(
      listField(
        t.fieldSoldOut,
        data.soldOut.map((r) => r.title),
        t,
        locale,
      ),
    );
  }

  if (data.wall === null) {
    fields.push({ name: t.fieldWall, value: t.unavailable });
  } else {
    const count = formatNumber(data.wall.count, locale) + (data.wall.countIsLowerBound ? '+' : '');
    fields.push({
      name: t.fieldWall,
      value: data.wall.latest
        ? t.wallValue(
            count,
            displayName(data.wall.latest.author, limits.name, t.someone),
            data.wall.latest.message,
          )
        : t.wallNone,
    });
  }

  if (data.blogPosts === null) {
    fields.push({ name: t.fieldBlog, value: t.unavailable });
  } else if (data.blogPosts.length > 0) {
    fields.push(
      listField(
        t.fieldBlog,
        // Title and badge only: the content of a supporter-only post must never reach a channel.
        data.blogPosts.map((p) => {
          const title = visibleLine(p.title, limits.title, t.untitled);
          return p.supporterOnly ? `${title} (${t.supporterOnlyBadge})` : title;
        }),
        t,
        locale,
      ),
    );
  }

  const footer = [t.footer(formatDateTime(data.generatedAt, locale, data.timeZone))];
  if (data.stale.length > 0) footer.push(t.staleFooter(staleText(data, locale)));

  return {
    title: t.title(data.project.title),
    ...(data.project.url ? { titleUrl: data.project.url } : {}),
    text: summary,
    fields,
    ...(funding.goal > 0 ? { progress: progressToward(funding.current, funding.goal, locale) } : {}),
    image: chartAttachment(data, locale, chartOptions),
    footer: footer.join(' · '),
    tone: data.milestones.length > 0 ? 'success' : 'info',
  };
}
