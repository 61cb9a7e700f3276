import type { NoticeKind } from '../../domain/events.js';
import type { Locale } from '../command-core.js';

/** The words of paced notices and corrections, per locale (the /pacing and /quiet answers are in the catalog). */
export interface PacingTexts {
  /** "7 new supporters since 14:05" (count already formatted). */
  readonly batchTitle: (kind: NoticeKind, count: number, formatted: string, since: string) => string;
  /** "While quiet hours lasted: ..." prefix for a quiet-hours summary. */
  readonly quietSummary: string;
  readonly andMore: (shown: string, more: string) => string;
  /** "A, B and 312 more, all named in the thread": the rest are listed after the notice. */
  readonly andMoreNamed: (shown: string, more: string, where: 'thread' | 'messages') => string;
  /** A catch-up's first line: the notices were held while the bot could not post in the channel. */
  readonly catchUpSummary: string;
  /** The title of a message continuing a list of names ("Supporters, continued (2 of 5)"). */
  readonly namesContinued: (kind: NoticeKind, part: number, parts: number) => string;
  /** "Posted late: it happened at 14:05" (a notice posted after later ones, once its doubt was resolved). */
  readonly happenedAt: (time: string) => string;
  readonly totalWithDelta: (total: string, delta: string | null) => string;
  readonly supporterCount: (count: string) => string;
  /** "as of 14:09": when a batch's figures were read. */
  readonly asOf: (time: string) => string;
  readonly withdrawn: (names: string) => string;
  /** The reason line of a corrected notice. */
  readonly reason: (event: 'support-dropped' | 'wall' | 'blog') => string;
}

const en: PacingTexts = {
  batchTitle: (kind, count, formatted, since) => {
    const one = count === 1;
    switch (kind) {
      case 'supporters':
        return `🎉 ${formatted} new ${one ? 'supporter' : 'supporters'} since ${since}`;
      case 'wall':
        return `💬 ${formatted} new wall ${one ? 'post' : 'posts'} since ${since}`;
      case 'blog':
        return `📝 ${formatted} new blog ${one ? 'post' : 'posts'} since ${since}`;
      default:
        return `🔔 ${formatted} ${one ? 'notice' : 'notices'} since ${since}`;
    }
  },
  quietSummary: 'Held during quiet hours',
  andMore: (shown, more) => `${shown} and ${more} more`,
  andMoreNamed: (shown, more, where) =>
    `${shown} and ${more} more, all named ${where === 'thread' ? 'in the thread' : 'below'}`,
  catchUpSummary: 'Held while fundbot could not post in this channel',
  namesContinued: (kind, part, parts) =>
    `${kind === 'supporters' ? 'Supporters' : kind === 'wall' ? 'Wall posts' : 'Names'}, continued (${part} of ${parts})`,
  happenedAt: (time) => `Posted late: it happened at ${time}.`,
  totalWithDelta: (total, delta) => (delta ? `total ${total} (+${delta})` : `total ${total}`),
  supporterCount: (count) => `supporter count ${count}`,
  asOf: (time) => `as of ${time}`,
  withdrawn: (names) => `Withdrawn since: ${names}`,
  reason: (event) =>
    event === 'support-dropped'
      ? 'Withdrawn: the support left the public list (payment not completed).'
      : event === 'wall'
        ? 'Withdrawn: the wall post was deleted.'
        : 'Withdrawn: the blog post was deleted.',
};

const de: PacingTexts = {
  batchTitle: (kind, count, formatted, since) => {
    const one = count === 1;
    switch (kind) {
      case 'supporters':
        return `🎉 ${formatted} ${one ? 'neue Unterstützung' : 'neue Unterstützungen'} seit ${since}`;
      case 'wall':
        return `💬 ${formatted} ${one ? 'neuer Pinnwand-Beitrag' : 'neue Pinnwand-Beiträge'} seit ${since}`;
      case 'blog':
        return `📝 ${formatted} ${one ? 'neuer Blogbeitrag' : 'neue Blogbeiträge'} seit ${since}`;
      default:
        return `🔔 ${formatted} ${one ? 'Meldung' : 'Meldungen'} seit ${since}`;
    }
  },
  quietSummary: 'Während der Ruhezeit gesammelt',
  andMore: (shown, more) => `${shown} und ${more} weitere`,
  andMoreNamed: (shown, more, where) =>
    `${shown} und ${more} weitere, alle ${where === 'thread' ? 'im Thread' : 'unten'} genannt`,
  catchUpSummary: 'Gesammelt, solange fundbot in diesem Kanal nicht posten konnte',
  namesContinued: (kind, part, parts) =>
    `${kind === 'supporters' ? 'Unterstützungen' : kind === 'wall' ? 'Pinnwand-Beiträge' : 'Namen'}, Fortsetzung (${part} von ${parts})`,
  happenedAt: (time) => `Verspätet gepostet: geschehen um ${time}.`,
  totalWithDelta: (total, delta) => (delta ? `gesamt ${total} (+${delta})` : `gesamt ${total}`),
  supporterCount: (count) => `${count} Unterstützer*innen`,
  asOf: (time) => `Stand ${time}`,
  withdrawn: (names) => `Inzwischen zurückgezogen: ${names}`,
  reason: (event) =>
    event === 'support-dropped'
      ? 'Zurückgezogen: die Unterstützung ist nicht mehr öffentlich gelistet (Zahlung nicht abgeschlossen).'
      : event === 'wall'
        ? 'Zurückgezogen: der Pinnwand-Beitrag wurde gelöscht.'
        : 'Zurückgezogen: der Blogbeitrag wurde gelöscht.',
};

/** The pacing texts of a locale. */
export function pacingTexts(locale: Locale): PacingTexts {
  return locale === 'de' ? de : en;
}
