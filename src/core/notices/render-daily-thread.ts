import type { DailyThreadEvent } from '../../domain/events.js';
import { displayName, singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import { formatMoney, formatNumber, progressToward } from '../format.js';
import { catalogFor } from '../i18n/index.js';
import type { NeutralMessage } from '../message.js';
import { formatDate } from '../time-format.js';
import { dailyThreadTexts } from './daily-thread-texts.js';
import { pacingTexts } from './pacing-texts.js';

/** Noon UTC of a YYYY-MM-DD day: formatted in UTC it is that day whatever the locale. */
function dayEpoch(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d, 12);
}

/** The day as the channel's language writes it ("2 Jun 2025", "02.06.2025"). */
export function formatThreadDate(date: string, locale: Locale): string {
  return formatDate(dayEpoch(date), locale, 'UTC');
}

/**
 * The daily thread's parent: "🎉 Supporters on 2 Jun 2025", then "12 new supporters
 * today · supporter count now 2,260 · total €12,480", the latest names, the progress
 * bar toward the goal and a pointer to the thread. Names are untrusted plain text,
 * bounded here and escaped by each adapter as in any notice.
 */
export function renderDailyThread(event: DailyThreadEvent, locale: Locale): NeutralMessage {
  const d = dailyThreadTexts(locale);
  const p = pacingTexts(locale);
  const t = catalogFor(locale);
  const figures = [d.newToday(event.count, formatNumber(event.count, locale))];
  if (event.supporterCount !== null) {
    figures.push(p.supporterCount(formatNumber(event.supporterCount, locale)));
  }
  if (event.fundingTotal !== null) {
    figures.push(p.totalWithDelta(formatMoney(event.fundingTotal, event.currency, locale), null));
  }
  const lines = [figures.join(' · ')];
  const names = event.latest
    .map((n) => displayName(n, limits.name, ''))
    .filter((n) => n !== '')
    .slice(0, limits.dailyThreadLatest);
  if (names.length > 0) lines.push(d.latest(names.join(', ')));
  lines.push(d.inThread);
  const goal = event.goal ?? 0;
  return {
    title: d.title(formatThreadDate(event.date, locale)),
    text: lines.join('\n'),
    ...(goal > 0 && event.fundingTotal !== null
      ? { progress: progressToward(event.fundingTotal, goal, locale) }
      : {}),
    tone: 'success',
    footer: t.notices.footer(singleLine(event.project, limits.title)),
  };
}
