import type { CorrectionEvent, NamesContinuedEvent, NoticeBatchEvent } from '../../domain/events.js';
import { displayName, singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import { formatMoney, formatNumber } from '../format.js';
import { catalogFor } from '../i18n/index.js';
import type { NeutralMessage } from '../message.js';
import { formatClock } from '../time-format.js';
import { splitNames } from './name-list.js';
import { pacingTexts } from './pacing-texts.js';

/**
 * A batch of held notices as one message: "7 new supporters since 14:05 CET", then
 * every name that fits the budget ("A, B, C and 4 more"), then the figures read with
 * the newest supporter and their time ("as of 14:09 CET: supporter count 2,260 · total
 * €12,480 (+€310)"). Times on the clock of the channel's `timeZone`, with its name.
 */
export function renderBatch(event: NoticeBatchEvent, locale: Locale, timeZone: string): NeutralMessage {
  const clockTime = (epochMs: number) => formatClock(epochMs, locale, timeZone);
  const p = pacingTexts(locale);
  const t = catalogFor(locale);
  const lines: string[] = [];
  if (event.reason === 'quiet-hours') lines.push(p.quietSummary);
  if (event.reason === 'no-access') lines.push(p.catchUpSummary);
  const names = namesLine(event.names, event.count, event.restNamedIn, locale);
  if (names) lines.push(names);
  const figures: string[] = [];
  if (event.supporterCount !== null) {
    figures.push(p.supporterCount(formatNumber(event.supporterCount, locale)));
  }
  if (event.fundingTotal !== null) {
    const money = (n: number) => formatMoney(n, event.currency, locale);
    const delta =
      event.fundingBefore !== null && event.fundingTotal > event.fundingBefore
        ? money(event.fundingTotal - event.fundingBefore)
        : null;
    figures.push(p.totalWithDelta(money(event.fundingTotal), delta));
  }
  if (figures.length > 0) {
    // Read with the newest held supporter, posted up to a window later: said with its time, never "now".
    const asOf = event.countedAt !== undefined ? `${p.asOf(clockTime(event.countedAt))}: ` : '';
    lines.push(`${asOf}${figures.join(' · ')}`);
  }
  const withdrawn = (event.withdrawn ?? []).map((n) => singleLine(n, limits.name));
  if (withdrawn.length > 0) lines.push(p.withdrawn(listWithin(withdrawn, withdrawn.length, locale)));
  return {
    title: p.batchTitle(event.kind, event.count, formatNumber(event.count, locale), clockTime(event.since)),
    ...(lines.length > 0 ? { text: lines.join('\n') } : {}),
    tone: event.kind === 'supporters' ? 'success' : 'info',
    footer: t.notices.footer(singleLine(event.project, limits.title)),
  };
}

/**
 * The names that fit the notice, the rest counted: "A, B and 4 more", or, when the
 * rest are listed after it (`restIn`), "A, B and 312 more, all named in the thread".
 * The first part of {@link splitNames}, so the thread holds exactly the others.
 */
export function namesLine(
  names: readonly string[],
  total: number,
  restIn: 'thread' | 'messages' | undefined,
  locale: Locale,
): string {
  if (restIn === undefined)
    return listWithin(
      names.map((n) => singleLine(n, limits.name)),
      total,
      locale,
    );
  const p = pacingTexts(locale);
  const shown = splitNames(names, locale)[0] ?? [];
  const more = Math.max(0, total - shown.length);
  if (shown.length === 0) return '';
  return more > 0 ? p.andMoreNamed(shown.join(', '), formatNumber(more, locale), restIn) : shown.join(', ');
}

/** A list of names continued in the thread of a batch or a burst ("Supporters, continued (2 of 5)"). */
export function renderNamesContinued(event: NamesContinuedEvent, locale: Locale): NeutralMessage {
  const p = pacingTexts(locale);
  const t = catalogFor(locale);
  return {
    title: p.namesContinued(event.kind, event.part, event.parts),
    text: event.names.join(', '),
    tone: event.kind === 'supporters' ? 'success' : 'info',
    footer: t.notices.footer(singleLine(event.project, limits.title)),
  };
}

/** Names joined until the budget is spent, the rest counted: "A, B and 4 more". */
function listWithin(names: readonly string[], total: number, locale: Locale): string {
  const p = pacingTexts(locale);
  const shown: string[] = [];
  let used = 0;
  for (const name of names) {
    if (name === '') continue;
    if (used + name.length + 2 > limits.batchNames) break;
    shown.push(name);
    used += name.length + 2;
  }
  if (shown.length === 0) return '';
  const more = Math.max(0, total - shown.length);
  return more > 0 ? p.andMore(shown.join(', '), formatNumber(more, locale)) : shown.join(', ');
}

/**
 * The edited version of a notice that was taken back: its title struck through
 * and a short reason, in the channel's language. Names stay plain text.
 */
export function renderCorrection(event: CorrectionEvent, locale: Locale): NeutralMessage {
  const t = catalogFor(locale);
  const p = pacingTexts(locale);
  const footer = t.notices.footer(singleLine(event.project, limits.title));
  if (event.type === 'support-dropped') {
    return {
      // Drops found below the window carry no name (the engine keeps only keys there).
      title: t.notices.supporter(displayName(event.displayName, limits.name, t.common.someone)),
      struck: true,
      text: p.reason('support-dropped'),
      tone: 'neutral',
      footer,
    };
  }
  return {
    title:
      event.feed === 'wall'
        ? t.notices.wallPost(singleLine(event.label, limits.name))
        : t.notices.blogPost(singleLine(event.label, limits.title)),
    struck: true,
    text: p.reason(event.feed),
    tone: 'neutral',
    footer,
  };
}
