/**
 * Words of the campaign features (issue 32, items 4 and 5): /deadline and the goal-pace alerts, /rollcall and
 * the roll-call. Amounts, dates and durations come formatted; names never appear in these strings.
 */
export interface CampaignCatalog {
  /** /deadline answered: the end as the channel reads it, the project, the alert's window and minimum. */
  readonly deadlineSet: (end: string, project: string, window: string, minSupporters: number) => string;
  readonly deadlineOff: (project: string) => string;
  /** Not a date; `given` is the user's text, plain. */
  readonly badDeadline: (given: string) => string;
  readonly pastDeadline: (given: string) => string;
  /** /subscriptions: the end set for the project, or how to set one. */
  readonly deadlineLine: (project: string, end: string | undefined, command: string) => string;
  /** The alert's title: the pace crossed to on track / behind for the goal or a milestone (`percent` formatted). */
  readonly paceTitle: (
    verdict: 'on-track' | 'behind',
    target: 'goal' | 'milestone',
    percent: string,
  ) => string;
  /** "At the pace of the last 24 hours: €X–€Y by <end> (needed: €Z)." */
  readonly paceRange: (window: string, low: string, high: string, end: string, target: string) => string;
  /** What the target needs a day and what the window brought a day. */
  readonly paceNeeds: (needed: string, perDay: string, supporters: number, window: string) => string;
  readonly rollCallSet: (cadence: 'weekly' | 'monthly', subscribe: string) => string;
  readonly rollCallOff: string;
  readonly rollCallLine: (cadence: 'weekly' | 'monthly' | undefined, command: string) => string;
  /** The roll-call's title: how many new supporters since the date (formatted). */
  readonly rollCallTitle: (count: number, countText: string, since: string) => string;
  readonly rollCallNone: (since: string) => string;
  /** "… brings our total to €X (+€Y) from N supporters." */
  readonly rollCallTotal: (total: string, delta: string | undefined, supporters: string) => string;
}

export const campaignEn: CampaignCatalog = {
  deadlineSet: (end, project, window, min) =>
    `Campaign end for ${project}: ${end}. This channel is told when the pace of the last ${window} crosses what the goal (after it, the next milestone) needs, with the range it gives. It needs the "milestones" notices and, before it says anything, ${window} of figures (and ${min} supports in them to call it on track).`,
  deadlineOff: (project) => `Campaign end for ${project} cleared: no more goal-pace alerts here.`,
  badDeadline: (given) =>
    `Give the campaign's last day as YYYY-MM-DD (e.g. 2026-12-24), or "off" (got "${given}").`,
  pastDeadline: (given) => `${given} is over already: give a day from today on, or "off".`,
  deadlineLine: (project, end, command) =>
    end === undefined
      ? `Goal-pace alerts for ${project}: off (${command} <YYYY-MM-DD>)`
      : `Goal-pace alerts for ${project}: campaign ends ${end}`,
  paceTitle: (verdict, target, percent) => {
    const what = target === 'goal' ? 'the goal' : `the ${percent} milestone`;
    return verdict === 'on-track' ? `📈 On track for ${what}` : `📉 Behind the pace ${what} needs`;
  },
  paceRange: (window, low, high, end, target) =>
    `At the pace of the last ${window}: ${low === high ? low : `${low}–${high}`} by ${end} (needed: ${target}).`,
  paceNeeds: (needed, perDay, supporters, window) =>
    `It needs ${needed} a day from now on; the last ${window} brought ${perDay} a day from ${supporters} ${supporters === 1 ? 'support' : 'supports'}.`,
  rollCallSet: (cadence, subscribe) =>
    `Roll-call on: every ${cadence === 'weekly' ? 'week' : 'month'} this channel thanks everyone who supported since the last one, by name. It names the projects this channel gets "supporters" notices of (${subscribe} <project> supporters).`,
  rollCallOff: 'Roll-call off: no more weekly or monthly thank-you here.',
  rollCallLine: (cadence, command) =>
    cadence === undefined ? `Roll-call: off (${command} weekly|monthly)` : `Roll-call: ${cadence}`,
  rollCallTitle: (count, countText, since) =>
    `🙏 Thank you! ${countText} new ${count === 1 ? 'supporter' : 'supporters'} since ${since}`,
  rollCallNone: (since) => `🙏 Roll-call: no new supporters since ${since}`,
  rollCallTotal: (total, delta, supporters) =>
    `Together you bring our total to ${total}${delta ? ` (+${delta})` : ''} from ${supporters} supporters.`,
};

export const campaignDe: CampaignCatalog = {
  deadlineSet: (end, project, window, min) =>
    `Kampagnenende für ${project}: ${end}. Dieser Kanal erfährt, wenn das Tempo der letzten ${window} über oder unter das fällt, was das Ziel (danach der nächste Meilenstein) braucht, mit der Spanne, die es ergibt. Dafür braucht er die Hinweise „milestones“ und zuerst ${window} an Zahlen (und ${min} Unterstützungen darin, um „auf Kurs“ zu sagen).`,
  deadlineOff: (project) => `Kampagnenende für ${project} gelöscht: keine Tempo-Hinweise mehr hier.`,
  badDeadline: (given) =>
    `Bitte den letzten Tag der Kampagne als JJJJ-MM-TT angeben (z. B. 2026-12-24) oder „off“ (nicht „${given}“).`,
  pastDeadline: (given) => `${given} ist schon vorbei: bitte einen Tag ab heute angeben oder „off“.`,
  deadlineLine: (project, end, command) =>
    end === undefined
      ? `Tempo-Hinweise für ${project}: aus (${command} <JJJJ-MM-TT>)`
      : `Tempo-Hinweise für ${project}: Kampagne endet ${end}`,
  paceTitle: (verdict, target, percent) => {
    const what = target === 'goal' ? 'das Ziel' : `den Meilenstein ${percent}`;
    return verdict === 'on-track' ? `📈 Auf Kurs für ${what}` : `📉 Hinter dem Tempo für ${what}`;
  },
  paceRange: (window, low, high, end, target) =>
    `Im Tempo der letzten ${window}: ${low === high ? low : `${low}–${high}`} bis ${end} (nötig: ${target}).`,
  paceNeeds: (needed, perDay, supporters, window) =>
    `Nötig sind ab jetzt ${needed} pro Tag; die letzten ${window} brachten ${perDay} pro Tag aus ${supporters} ${supporters === 1 ? 'Unterstützung' : 'Unterstützungen'}.`,
  rollCallSet: (cadence, subscribe) =>
    `Dankesrunde an: ${cadence === 'weekly' ? 'jede Woche' : 'jeden Monat'} dankt dieser Kanal allen, die seit der letzten unterstützt haben, mit Namen. Sie nennt die Projekte, deren Hinweise „supporters“ dieser Kanal bekommt (${subscribe} <Projekt> supporters).`,
  rollCallOff: 'Dankesrunde aus: kein wöchentlicher oder monatlicher Dank mehr hier.',
  rollCallLine: (cadence, command) =>
    cadence === undefined
      ? `Dankesrunde: aus (${command} weekly|monthly)`
      : `Dankesrunde: ${cadence === 'weekly' ? 'wöchentlich' : 'monatlich'}`,
  rollCallTitle: (count, countText, since) =>
    `🙏 Danke! ${countText} ${count === 1 ? 'neue Unterstützung' : 'neue Unterstützungen'} seit ${since}`,
  rollCallNone: (since) => `🙏 Dankesrunde: keine neuen Unterstützungen seit ${since}`,
  rollCallTotal: (total, delta, supporters) =>
    `Zusammen bringt ihr uns auf ${total}${delta ? ` (+${delta})` : ''} von ${supporters} Unterstützer*innen.`,
};
