import type { PaceReading, PaceVerdict } from '../../domain/goal-pace.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Locale } from '../command-core.js';
import { formatWindow } from '../duration.js';
import { formatMoney, formatNumber, formatPercent } from '../format.js';
import { catalogFor } from '../i18n/index.js';
import type { NeutralMessage } from '../message.js';
import { formatDate } from '../time-format.js';
import { splitNames } from './name-list.js';
import { pacingTexts } from './pacing-texts.js';

export interface PaceAlertInput {
  readonly project: string;
  readonly currency: string;
  readonly verdict: PaceVerdict;
  readonly reading: PaceReading;
  readonly endsAt: number;
  readonly windowMs: number;
}

/** The goal-pace alert (issue 32, item 4): the crossing, the range the window's pace gives, and what is needed. */
export function renderPaceAlert(input: PaceAlertInput, locale: Locale, timeZone: string): NeutralMessage {
  const t = catalogFor(locale);
  const texts = t.campaign;
  const { reading } = input;
  // Rounded to whole units: the range is an estimate, cents would claim a precision it does not have.
  const cur = (amount: number) => formatMoney(Math.round(amount), input.currency, locale);
  const window = formatWindow(input.windowMs, t);
  return {
    title: texts.paceTitle(input.verdict, reading.target.kind, formatPercent(reading.target.percent, locale)),
    text: [
      texts.paceRange(
        window,
        cur(reading.range.low),
        cur(reading.range.high),
        formatDate(input.endsAt - 1, locale, timeZone),
        cur(reading.targetAmount),
      ),
      texts.paceNeeds(cur(reading.neededPerDay), cur(reading.perDay), reading.supportersInWindow, window),
    ].join('\n'),
    tone: input.verdict === 'on-track' ? 'success' : 'warning',
    footer: t.notices.footer(singleLine(input.project, limits.title)),
  };
}

export interface RollCallInput {
  readonly project: string;
  readonly currency: string;
  /** Every supporter since `since`, oldest first; untrusted plain text. */
  readonly names: readonly string[];
  readonly since: number;
  readonly total: number;
  /** Funding gained since `since`, when the history knows it. */
  readonly gained: number | undefined;
  readonly supporters: number;
  /** Where the names beyond the first message follow. */
  readonly restIn: 'thread' | 'messages';
}

/**
 * The roll-call (issue 32, item 5): thanks, the first part of the names (the rest follow in its thread through
 * the delivery's name continuation, the one split of `splitNames`), and the totals since the last one. Public
 * supports carry no reward (that is order data), so the names are not grouped by tier.
 */
export function renderRollCall(input: RollCallInput, locale: Locale, timeZone: string): NeutralMessage {
  const t = catalogFor(locale);
  const texts = t.campaign;
  const since = formatDate(input.since, locale, timeZone);
  const cur = (amount: number) => formatMoney(amount, input.currency, locale);
  const total = texts.rollCallTotal(
    cur(input.total),
    input.gained !== undefined && input.gained > 0 ? cur(input.gained) : undefined,
    formatNumber(input.supporters, locale),
  );
  const footer = t.notices.footer(singleLine(input.project, limits.title));
  if (input.names.length === 0)
    return { title: texts.rollCallNone(since), text: total, tone: 'info', footer };
  const shown = splitNames(input.names, locale)[0] ?? [];
  const more = input.names.length - shown.length;
  const names =
    more > 0
      ? pacingTexts(locale).andMoreNamed(shown.join(', '), formatNumber(more, locale), input.restIn)
      : shown.join(', ');
  return {
    title: texts.rollCallTitle(input.names.length, formatNumber(input.names.length, locale), since),
    // The names in the text, as a batch's: a field's value holds far less (Discord 1,024 characters).
    text: `${total}\n\n${names}`,
    tone: 'success',
    footer,
  };
}
