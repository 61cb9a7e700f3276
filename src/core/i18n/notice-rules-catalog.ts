/** The words of /ping and /filter and their /subscriptions lines (issue 32, item 6). */
export interface NoticeRulesCatalog {
  /** `group` is how the platform shows the group (a mention the renderer draws), `kinds` a list. */
  readonly pingSet: (kinds: string) => string;
  readonly pingOff: string;
  /** Not a role or user group; `given` plain user text, `how` what to give on this platform. */
  readonly badTarget: (given: string, platform: 'discord' | 'slack' | 'console') => string;
  readonly badKinds: (given: string, kinds: string) => string;
  readonly wallSet: (allow: string, deny: string) => string;
  readonly wallOff: string;
  readonly levelsSet: (levels: string) => string;
  readonly levelsOff: string;
  readonly badFilter: (command: string) => string;
  /** /subscriptions lines. */
  readonly pingLine: (kinds: string) => string;
  readonly wallLine: (allow: string, deny: string) => string;
  readonly levelsLine: (levels: string) => string;
  readonly none: string;
}

const targetHelpEn = {
  discord: 'a role, as @role (or its id)',
  slack: 'a user group, as its ID (S…, from the group\'s menu: "Copy group ID")',
  console: 'a group (not available in the console)',
} as const;
const targetHelpDe = {
  discord: 'eine Rolle, als @Rolle (oder ihre ID)',
  slack: 'eine Benutzergruppe, als ihre ID (S…, im Menü der Gruppe: „Gruppen-ID kopieren“)',
  console: 'eine Gruppe (in der Konsole nicht verfügbar)',
} as const;

export const noticeRulesEn: NoticeRulesCatalog = {
  pingSet: (kinds) =>
    `Pings on: the chosen group is mentioned in this channel's ${kinds} notices only. Names and posts in notices never ping.`,
  pingOff: 'Pings off: no notice of this channel mentions a group.',
  badTarget: (given, platform) => `Give ${targetHelpEn[platform]}, or "off" (got "${given}").`,
  badKinds: (given, kinds) => `Unknown kinds "${given}": give some of ${kinds}.`,
  wallSet: (allow, deny) =>
    `Wall filter on: ${allow ? `only posts naming ${allow}` : 'every post'}${deny ? `, never those naming ${deny}` : ''}. Filtered posts show as "filtered" in /notices.`,
  wallOff: 'Wall filter off: every wall post is posted here.',
  levelsSet: (levels) => `Milestone filter on: only ${levels} are posted here.`,
  levelsOff: 'Milestone filter off: every milestone is posted here.',
  badFilter: (command) =>
    `Give ${command} wall allow <words…>, ${command} wall deny <words…>, ${command} milestones <levels…> (e.g. 50 100), or off after the kind.`,
  pingLine: (kinds) => `Pings: the chosen group on ${kinds}`,
  wallLine: (allow, deny) =>
    `Wall filter: ${[allow ? `only ${allow}` : '', deny ? `never ${deny}` : ''].filter(Boolean).join('; ')}`,
  levelsLine: (levels) => `Milestones: only ${levels}`,
  none: 'no pings, no filters',
};

export const noticeRulesDe: NoticeRulesCatalog = {
  pingSet: (kinds) =>
    `Erwähnungen an: die gewählte Gruppe wird nur in den Hinweisen „${kinds}“ dieses Kanals erwähnt. Namen und Beiträge in Hinweisen erwähnen nie jemanden.`,
  pingOff: 'Erwähnungen aus: kein Hinweis dieses Kanals erwähnt eine Gruppe.',
  badTarget: (given, platform) => `Bitte ${targetHelpDe[platform]} angeben oder „off“ (nicht „${given}“).`,
  badKinds: (given, kinds) => `Unbekannte Arten „${given}“: bitte aus ${kinds} wählen.`,
  wallSet: (allow, deny) =>
    `Pinnwand-Filter an: ${allow ? `nur Einträge mit ${allow}` : 'alle Einträge'}${deny ? `, nie solche mit ${deny}` : ''}. Gefilterte Einträge stehen in /notices als „ausgefiltert“.`,
  wallOff: 'Pinnwand-Filter aus: jeder Pinnwand-Eintrag wird hier gepostet.',
  levelsSet: (levels) => `Meilenstein-Filter an: nur ${levels} werden hier gepostet.`,
  levelsOff: 'Meilenstein-Filter aus: jeder Meilenstein wird hier gepostet.',
  badFilter: (command) =>
    `Bitte ${command} wall allow <Wörter…>, ${command} wall deny <Wörter…>, ${command} milestones <Stufen…> (z. B. 50 100) oder off nach der Art angeben.`,
  pingLine: (kinds) => `Erwähnungen: die gewählte Gruppe bei ${kinds}`,
  wallLine: (allow, deny) =>
    `Pinnwand-Filter: ${[allow ? `nur ${allow}` : '', deny ? `nie ${deny}` : ''].filter(Boolean).join('; ')}`,
  levelsLine: (levels) => `Meilensteine: nur ${levels}`,
  none: 'keine Erwähnungen, keine Filter',
};
