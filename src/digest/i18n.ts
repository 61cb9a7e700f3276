import type { Locale } from '../core/index.js';

/**
 * The digest's own small catalog. Every locale must provide every key: the
 * `satisfies` check below turns a missing German string into a compile error
 * instead of an English word in a German channel.
 */
export interface DigestCatalog {
  readonly title: (project: string) => string;
  readonly summaryChange: (amount: string, supporters: string, window: string) => string;
  readonly summaryNoChange: (window: string) => string;
  /** The digest's window inside a sentence: "in the last 24 hours" / "since 2:05 PM". */
  readonly windowLast24h: string;
  readonly windowSince: (start: string) => string;
  /** The same as a field title. */
  readonly fieldWindowLast24h: string;
  readonly fieldWindowSince: (start: string) => string;
  readonly summaryUnknown: string;
  readonly fieldTotal: string;
  readonly totalOfGoal: (funding: string, goal: string, percent: string) => string;
  readonly totalNoGoal: (funding: string) => string;
  readonly supporterCount: (count: string) => string;
  readonly changeValue: (amount: string, supporters: string) => string;
  readonly fieldMilestones: string;
  readonly milestonesValue: (percents: string) => string;
  readonly fieldPace: string;
  readonly paceEta: (date: string, perDay: string) => string;
  readonly paceEtaShortBasis: (date: string, perDay: string, days: string) => string;
  readonly paceGoalReached: string;
  readonly paceNoSupports: string;
  readonly paceUnknown: string;
  readonly fieldWall: string;
  readonly wallValue: (count: string, author: string, message: string) => string;
  readonly wallNone: string;
  /** Stands for a wall post's author whose name shows nothing. */
  readonly someone: string;
  /** Stands for a blog post title that shows nothing. */
  readonly untitled: string;
  readonly fieldBlog: string;
  readonly supporterOnlyBadge: string;
  readonly fieldRewardsSold: string;
  readonly rewardSoldLine: (count: string, title: string) => string;
  readonly fieldSoldOut: string;
  readonly andMore: (count: string) => string;
  readonly unavailable: string;
  /** `at` carries its zone's name ("Jan 15, 2026, 09:00 CET"). */
  readonly footer: (at: string) => string;
  readonly staleFooter: (reason: string) => string;
  readonly chartAlt: (funding: string, goal: string, from: string, to: string) => string;
  readonly chartAltNoGoal: (funding: string, from: string, to: string) => string;
  readonly chartAltEmpty: string;
  readonly chartGoal: string;
  readonly chartNoData: string;
  readonly chartTitle: (project: string, date: string) => string;
  readonly chartFunding: string;
  readonly chartSupportersPerDay: string;
  readonly chartTrend: string;
  readonly chartEta: (date: string) => string;
  /** At the end of a trend whose goal day lies beyond the axis: "goal ~Apr 10 →". */
  readonly chartEtaBeyond: (date: string) => string;
  readonly chartNotAtThisPace: string;
}

const en: DigestCatalog = {
  title: (project) => `Daily digest: ${project}`,
  summaryChange: (amount, supporters, window) => `${amount} from ${supporters} ${window}.`,
  summaryNoChange: (window) => `No new supports ${window}.`,
  windowLast24h: 'in the last 24 hours',
  windowSince: (start) => `since ${start}`,
  fieldWindowLast24h: 'Last 24 hours',
  fieldWindowSince: (start) => `Since ${start}`,
  summaryUnknown: 'No funding history for the last 24 hours yet.',
  fieldTotal: 'Total',
  totalOfGoal: (funding, goal, percent) => `${funding} of ${goal} (${percent})`,
  totalNoGoal: (funding) => funding,
  supporterCount: (count) => (count === '1' ? '1 supporter' : `${count} supporters`),
  changeValue: (amount, supporters) => `${amount} · ${supporters}`,
  fieldMilestones: 'Milestones reached',
  milestonesValue: (percents) => `${percents} of the goal`,
  fieldPace: 'Pace',
  paceEta: (date, perDay) =>
    `At the last 7 days' rate (${perDay} per day) the goal is reached around ${date}.`,
  paceEtaShortBasis: (date, perDay, days) =>
    `At the rate of the last ${days} days (${perDay} per day) the goal is reached around ${date}.`,
  paceGoalReached: 'Goal reached.',
  paceNoSupports: 'No supports in the last 7 days.',
  paceUnknown: 'Not enough history yet.',
  fieldWall: 'Wall',
  wallValue: (count, author, message) =>
    `${count === '1' ? '1 new post' : `${count} new posts`}; latest by ${author}: “${message}”`,
  wallNone: 'No new posts.',
  someone: 'a supporter',
  untitled: '(untitled)',
  fieldBlog: 'Blog',
  supporterOnlyBadge: 'supporters only',
  fieldRewardsSold: 'Rewards sold',
  rewardSoldLine: (count, title) => `${count}× ${title}`,
  fieldSoldOut: 'Sold out',
  andMore: (count) => `… and ${count} more`,
  unavailable: 'not available right now',
  footer: (at) => `As of ${at}`,
  staleFooter: (reason) => `Some data may be outdated: ${reason}`,
  chartAlt: (funding, goal, from, to) =>
    `Funding chart from ${from} to ${to}: ${funding} of the ${goal} goal.`,
  chartAltNoGoal: (funding, from, to) => `Funding chart from ${from} to ${to}: ${funding}.`,
  chartAltEmpty: 'Funding chart: no funding history yet.',
  chartGoal: 'Goal',
  chartNoData: 'No data yet',
  chartTitle: (project, date) => `${project} · ${date}`,
  chartFunding: 'Funding',
  chartSupportersPerDay: 'New supporters per day',
  chartTrend: "Last 7 days' trend",
  chartEta: (date) => `Goal around ${date} at this pace`,
  chartEtaBeyond: (date) => `goal ~${date} →`,
  chartNotAtThisPace: 'Goal not reached at this pace',
};

const de: DigestCatalog = {
  title: (project) => `Tagesübersicht: ${project}`,
  summaryChange: (amount, supporters, window) => `${amount} von ${supporters} ${window}.`,
  summaryNoChange: (window) => `Keine neuen Unterstützungen ${window}.`,
  windowLast24h: 'in den letzten 24 Stunden',
  windowSince: (start) => `seit ${start}`,
  fieldWindowLast24h: 'Letzte 24 Stunden',
  fieldWindowSince: (start) => `Seit ${start}`,
  summaryUnknown: 'Noch kein Finanzierungsverlauf für die letzten 24 Stunden.',
  fieldTotal: 'Gesamt',
  totalOfGoal: (funding, goal, percent) => `${funding} von ${goal} (${percent})`,
  totalNoGoal: (funding) => funding,
  supporterCount: (count) => (count === '1' ? '1 Unterstützer*in' : `${count} Unterstützer*innen`),
  changeValue: (amount, supporters) => `${amount} · ${supporters}`,
  fieldMilestones: 'Erreichte Meilensteine',
  milestonesValue: (percents) => `${percents} des Ziels`,
  fieldPace: 'Tempo',
  paceEta: (date, perDay) =>
    `Im Tempo der letzten 7 Tage (${perDay} pro Tag) wird das Ziel etwa am ${date} erreicht.`,
  paceEtaShortBasis: (date, perDay, days) =>
    `Im Tempo der letzten ${days} Tage (${perDay} pro Tag) wird das Ziel etwa am ${date} erreicht.`,
  paceGoalReached: 'Ziel erreicht.',
  paceNoSupports: 'Keine Unterstützungen in den letzten 7 Tagen.',
  paceUnknown: 'Noch zu wenig Verlauf.',
  fieldWall: 'Pinnwand',
  wallValue: (count, author, message) =>
    `${count === '1' ? '1 neuer Beitrag' : `${count} neue Beiträge`}; zuletzt von ${author}: „${message}“`,
  wallNone: 'Keine neuen Beiträge.',
  someone: 'jemand',
  untitled: '(ohne Titel)',
  fieldBlog: 'Blog',
  supporterOnlyBadge: 'nur für Unterstützer*innen',
  fieldRewardsSold: 'Verkaufte Dankeschöns',
  rewardSoldLine: (count, title) => `${count}× ${title}`,
  fieldSoldOut: 'Ausverkauft',
  andMore: (count) => `… und ${count} weitere`,
  unavailable: 'gerade nicht verfügbar',
  footer: (at) => `Stand: ${at}`,
  staleFooter: (reason) => `Einige Daten sind evtl. veraltet: ${reason}`,
  chartAlt: (funding, goal, from, to) =>
    `Finanzierungsverlauf vom ${from} bis ${to}: ${funding} vom Ziel ${goal}.`,
  chartAltNoGoal: (funding, from, to) => `Finanzierungsverlauf vom ${from} bis ${to}: ${funding}.`,
  chartAltEmpty: 'Finanzierungsverlauf: noch keine Daten.',
  chartGoal: 'Ziel',
  chartNoData: 'Noch keine Daten',
  chartTitle: (project, date) => `${project} · ${date}`,
  chartFunding: 'Finanzierung',
  chartSupportersPerDay: 'Neue Unterstützer*innen pro Tag',
  chartTrend: 'Trend der letzten 7 Tage',
  chartEta: (date) => `Ziel etwa am ${date} bei diesem Tempo`,
  chartEtaBeyond: (date) => `Ziel ~${date} →`,
  chartNotAtThisPace: 'Ziel bei diesem Tempo nicht erreicht',
};

const catalogs = { en, de } as const satisfies Record<Locale, DigestCatalog>;

/** The digest strings for a locale. */
export function digestText(locale: Locale): DigestCatalog {
  return catalogs[locale];
}
