import type { Locale } from '../command-core.js';

/** The words of the daily thread (its parent message, its name and the /thread command), per locale. */
export interface DailyThreadTexts {
  /** The parent's title: "🎉 Supporters on 2 Jun 2025". */
  readonly title: (date: string) => string;
  /** "12 new today" (count already formatted). */
  readonly newToday: (count: number, formatted: string) => string;
  readonly latest: (names: string) => string;
  /** The hint under the figures: everything is in the thread. */
  readonly inThread: string;
  /** The Discord thread's name (plain text, shown in the channel list). */
  readonly threadName: (project: string, date: string) => string;
  readonly turnedOn: string;
  readonly turnedOff: string;
  readonly badValue: (given: string) => string;
}

const en: DailyThreadTexts = {
  title: (date) => `🎉 Supporters on ${date}`,
  newToday: (count, formatted) => `${formatted} new ${count === 1 ? 'supporter' : 'supporters'} today`,
  latest: (names) => `Latest: ${names}`,
  inThread: 'Every supporter of the day is in the thread.',
  threadName: (project, date) => `Supporters ${date} · ${project}`,
  turnedOn:
    'Daily thread on: supporter notices of this channel now go into one thread a day; the channel shows one message a day with the running total.',
  turnedOff: 'Daily thread off: supporter notices are posted in the channel again.',
  badValue: (given) => `Say "on" or "off" (got "${given}").`,
};

const de: DailyThreadTexts = {
  title: (date) => `🎉 Unterstützungen am ${date}`,
  newToday: (count, formatted) =>
    `${formatted} ${count === 1 ? 'neue Unterstützung' : 'neue Unterstützungen'} heute`,
  latest: (names) => `Zuletzt: ${names}`,
  inThread: 'Alle Unterstützungen des Tages stehen im Thread.',
  threadName: (project, date) => `Unterstützungen ${date} · ${project}`,
  turnedOn:
    'Tages-Thread an: Unterstützungen dieses Kanals kommen jetzt in einen Thread pro Tag; der Kanal zeigt eine Nachricht am Tag mit dem laufenden Stand.',
  turnedOff: 'Tages-Thread aus: Unterstützungen werden wieder im Kanal gepostet.',
  badValue: (given) => `Bitte „on“ oder „off“ angeben (nicht „${given}“).`,
};

/** The daily-thread texts of a locale. */
export function dailyThreadTexts(locale: Locale): DailyThreadTexts {
  return locale === 'de' ? de : en;
}
