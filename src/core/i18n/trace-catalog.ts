import type { FundbotEvent } from '../../domain/events.js';

/**
 * The delivery trace's words (/notices, /why, the App Home's section): issue 32, item 2. Times come formatted
 * (the channel's clock), names plain (the renderers escape them).
 */
export interface TraceCatalog {
  readonly title: string;
  /** Nothing traced yet; `kept` how long the trace remembers. */
  readonly empty: string;
  /** What a notice was: "Supporter", "3 supporters", "Wall post"…; `label` the public names or title, if shown. */
  readonly notice: (type: FundbotEvent['type'], count: number, label: string | undefined) => string;
  /** A notice the channel has not been shown: its names wait until it is. */
  readonly notShownYet: string;
  readonly posted: (at: string) => string;
  readonly postedInBatch: (at: string) => string;
  readonly heldPaced: (until: string) => string;
  readonly heldQuiet: (until: string) => string;
  readonly cannotPost: (since: string) => string;
  readonly awaitingAnswer: (since: string) => string;
  readonly inDoubt: (since: string) => string;
  readonly retrying: (since: string) => string;
  readonly givenUp: (at: string) => string;
  readonly filtered: string;
  readonly digest: string;
  readonly queued: string;
  /** A doubt and how it ended (absent outcome: not yet). */
  readonly wasInDoubt: (since: string, outcome: 'found' | 'posted' | undefined) => string;
  readonly corrected: (at: string) => string;
  /** The link button of the notice numbered `n` in the list. */
  readonly open: (n: number) => string;
  readonly footer: (shown: number, why: string) => string;
  /** /why: the answer's title for a supporter name (plain). */
  readonly whyTitle: (name: string) => string;
  /** /why: one notice that named them: what, of which project, when it happened and was seen, what came of it. */
  readonly whyLine: (what: string, project: string, happened: string, seen: string, state: string) => string;
  /** /why: no notice of the last `kept` names them. */
  readonly whyNone: (name: string, kept: number, notices: string) => string;
  readonly whyNeedsName: (command: string) => string;
  /** App Home: the section's title, and a channel beyond those shown. */
  readonly homeTitle: string;
  readonly homeMore: (count: number, command: string) => string;
}

const typeEn: Record<FundbotEvent['type'], (count: number) => string> = {
  supporter: () => 'Supporter',
  'supporter-burst': (n) => `${n} supporters`,
  'wall-post': () => 'Wall post',
  'wall-post-burst': (n) => `${n} wall posts`,
  'blog-post': () => 'Blog post',
  milestone: () => 'Milestone',
  'reward-sold-out': () => 'Sold out',
  'reward-unlocked': () => 'Reward unlocked',
  'reward-restocked': () => 'Back in stock',
  'reward-low-stock': () => 'Low stock',
  'project-status': () => 'Project status',
  watching: () => 'Now watching',
  'notice-batch': (n) => `Batch of ${n}`,
  'daily-thread': () => 'Daily thread',
  'names-continued': () => 'Names continued',
  'support-dropped': () => 'Correction',
  'post-deleted': () => 'Correction',
  'feed-health': () => 'Feed health',
};

const typeDe: Record<FundbotEvent['type'], (count: number) => string> = {
  supporter: () => 'Unterstützung',
  'supporter-burst': (n) => `${n} Unterstützungen`,
  'wall-post': () => 'Pinnwand-Eintrag',
  'wall-post-burst': (n) => `${n} Pinnwand-Einträge`,
  'blog-post': () => 'Blogeintrag',
  milestone: () => 'Meilenstein',
  'reward-sold-out': () => 'Ausverkauft',
  'reward-unlocked': () => 'Dankeschön freigeschaltet',
  'reward-restocked': () => 'Wieder verfügbar',
  'reward-low-stock': () => 'Knapp',
  'project-status': () => 'Projektstatus',
  watching: () => 'Beobachtung gestartet',
  'notice-batch': (n) => `Sammelnachricht mit ${n}`,
  'daily-thread': () => 'Tages-Thread',
  'names-continued': () => 'Weitere Namen',
  'support-dropped': () => 'Korrektur',
  'post-deleted': () => 'Korrektur',
  'feed-health': () => 'Feed-Zustand',
};

export const traceEn: TraceCatalog = {
  title: 'Last notices in this channel',
  empty:
    'No notices traced in this channel yet: each notice placed here is listed from now on (the last 36 are kept, for 14 days).',
  notice: (type, count, label) => (label ? `${typeEn[type](count)}: ${label}` : typeEn[type](count)),
  notShownYet: 'names shown once posted',
  posted: (at) => `posted ${at}`,
  postedInBatch: (at) => `posted in a batch message ${at}`,
  heldPaced: (until) => `held by this channel's pacing until ${until}`,
  heldQuiet: (until) => `held for quiet hours until ${until}`,
  cannotPost: (since) =>
    `not posted: fundbot cannot post in this channel since ${since}; it follows when it can`,
  awaitingAnswer: (since) => `sent ${since}, waiting for the platform's answer`,
  inDoubt: (since) => `in doubt since ${since}: looked for in the channel before it is posted again`,
  retrying: (since) => `refused by the platform since ${since}: retried`,
  givenUp: (at) => `given up ${at}`,
  filtered: "filtered by this channel's filters (not posted)",
  digest: 'not posted: this kind goes to the daily digest here',
  queued: 'being posted',
  wasInDoubt: (since, outcome) =>
    outcome === 'found'
      ? `in doubt from ${since}, then found in the channel (not posted twice)`
      : outcome === 'posted'
        ? `in doubt from ${since}, then posted (it had not landed)`
        : `in doubt since ${since}`,
  corrected: (at) => `corrected ${at}`,
  open: (n) => `Open ${n}`,
  footer: (shown, why) => `The last ${shown}, newest first, as they stand now. One supporter: ${why} <name>`,
  whyTitle: (name) => `What happened to ${name}`,
  whyLine: (what, project, happened, seen, state) =>
    `${what} (${project}): happened ${happened}, seen ${seen}; ${state}`,
  whyNone: (name, kept, notices) =>
    `No notice of this channel's last ${kept} names "${name}" (names as the notices show them, exactly). ${notices} lists the latest.`,
  whyNeedsName: (command) => `Give a supporter's name as the notices show it: ${command} <name>`,
  homeTitle: 'Last notices by channel',
  homeMore: (count, command) => `${count} more ${count === 1 ? 'channel' : 'channels'}: ${command} there.`,
};

export const traceDe: TraceCatalog = {
  title: 'Letzte Hinweise in diesem Kanal',
  empty:
    'Noch keine Hinweise in diesem Kanal verfolgt: ab jetzt steht hier jeder Hinweis (die letzten 36, 14 Tage lang).',
  notice: (type, count, label) => (label ? `${typeDe[type](count)}: ${label}` : typeDe[type](count)),
  notShownYet: 'Namen erst nach dem Posten',
  posted: (at) => `gepostet ${at}`,
  postedInBatch: (at) => `in einer Sammelnachricht gepostet ${at}`,
  heldPaced: (until) => `wegen der Taktung dieses Kanals zurückgehalten bis ${until}`,
  heldQuiet: (until) => `wegen der Ruhezeit zurückgehalten bis ${until}`,
  cannotPost: (since) =>
    `nicht gepostet: fundbot kann seit ${since} nicht in diesem Kanal posten; es folgt, sobald es geht`,
  awaitingAnswer: (since) => `gesendet ${since}, wartet auf die Antwort der Plattform`,
  inDoubt: (since) => `unklar seit ${since}: wird im Kanal gesucht, bevor es erneut gepostet wird`,
  retrying: (since) => `seit ${since} von der Plattform abgelehnt: wird wiederholt`,
  givenUp: (at) => `aufgegeben ${at}`,
  filtered: 'von den Filtern dieses Kanals ausgefiltert (nicht gepostet)',
  digest: 'nicht gepostet: diese Art geht hier in die tägliche Zusammenfassung',
  queued: 'wird gepostet',
  wasInDoubt: (since, outcome) =>
    outcome === 'found'
      ? `unklar ab ${since}, dann im Kanal gefunden (nicht doppelt gepostet)`
      : outcome === 'posted'
        ? `unklar ab ${since}, dann gepostet (es war nicht angekommen)`
        : `unklar seit ${since}`,
  corrected: (at) => `korrigiert ${at}`,
  open: (n) => `Öffnen ${n}`,
  footer: (shown, why) =>
    `Die letzten ${shown}, neueste zuerst, mit ihrem Stand jetzt. Zu einer Person: ${why} <Name>`,
  whyTitle: (name) => `Was mit ${name} geschah`,
  whyLine: (what, project, happened, seen, state) =>
    `${what} (${project}): geschehen ${happened}, gesehen ${seen}; ${state}`,
  whyNone: (name, kept, notices) =>
    `Keiner der letzten ${kept} Hinweise dieses Kanals nennt „${name}“ (Namen genau so, wie die Hinweise sie zeigen). ${notices} zeigt die letzten.`,
  whyNeedsName: (command) => `Bitte einen Namen angeben, wie ihn die Hinweise zeigen: ${command} <Name>`,
  homeTitle: 'Letzte Hinweise nach Kanal',
  homeMore: (count, command) => `${count} weitere ${count === 1 ? 'Kanal' : 'Kanäle'}: dort ${command}.`,
};
