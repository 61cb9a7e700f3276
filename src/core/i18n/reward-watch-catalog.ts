/** Words of the members' reward watch (issue 32, item 3c): /watch, /unwatch and their answers. */
export interface RewardWatchCatalog {
  /** Watch set; `title` plain and inert, `max` the per-member cap. */
  readonly added: (title: string, project: string) => string;
  readonly already: (title: string) => string;
  /** The reward can be ordered now: nothing to wait for. */
  readonly availableNow: (title: string) => string;
  readonly userFull: (max: number, unwatch: string) => string;
  readonly workspaceFull: string;
  /** No reward id given or not a whole number; `watch` is the command as typed here. */
  readonly badId: (given: string, watch: string) => string;
  readonly removed: (id: number, project: string) => string;
  readonly notWatching: (id: number, project: string) => string;
  /** `/watch` alone: the member's watches (lines "#<id> in <project>") or none. */
  readonly listTitle: string;
  readonly listLine: (id: number, project: string) => string;
  readonly none: (watch: string) => string;
  /** Under the list: how a watch ends. */
  readonly listFooter: string;
}

export const rewardWatchEn: RewardWatchCatalog = {
  added: (title, project) =>
    `Watching "${title}" (${project}): you get one direct message when it can be ordered again, then the watch ends.`,
  already: (title) => `You already watch "${title}": you get one direct message when it is back.`,
  availableNow: (title) =>
    `"${title}" is available now: order it on the project page, there is nothing to wait for.`,
  userFull: (max, unwatch) =>
    `You watch ${max} rewards already, the most one member may: end one with ${unwatch} reward <id>.`,
  workspaceFull:
    'This workspace has as many reward watches as fundbot keeps: try again when some were delivered.',
  badId: (given, watch) =>
    `Give the reward's id as a whole number: ${watch} reward <id> (got "${given}"). /rewards lists them.`,
  removed: (id, project) => `No longer watching reward #${id} (${project}).`,
  notWatching: (id, project) => `You were not watching reward #${id} (${project}).`,
  listTitle: 'Your reward watches',
  listLine: (id, project) => `#${id} in ${project}`,
  none: (watch) =>
    `You watch no rewards. ${watch} reward <id> sends you one direct message when a sold-out reward is back.`,
  listFooter: 'Each sends one direct message when the reward can be ordered again, then ends.',
};

export const rewardWatchDe: RewardWatchCatalog = {
  added: (title, project) =>
    `Vorgemerkt: „${title}“ (${project}). Du bekommst eine Direktnachricht, sobald es wieder verfügbar ist, dann endet die Vormerkung.`,
  already: (title) =>
    `„${title}“ ist schon vorgemerkt: du bekommst eine Direktnachricht, sobald es wieder da ist.`,
  availableNow: (title) =>
    `„${title}“ ist jetzt verfügbar: einfach auf der Projektseite wählen, kein Warten nötig.`,
  userFull: (max, unwatch) =>
    `Du hast schon ${max} Dankeschöns vorgemerkt, mehr geht nicht: beende eine Vormerkung mit ${unwatch} reward <ID>.`,
  workspaceFull:
    'Dieser Workspace hat so viele Vormerkungen, wie fundbot speichert: bitte später noch einmal versuchen.',
  badId: (given, watch) =>
    `Bitte die ID des Dankeschöns als ganze Zahl angeben: ${watch} reward <ID> (nicht „${given}“). /rewards listet sie.`,
  removed: (id, project) => `Vormerkung für Dankeschön #${id} (${project}) beendet.`,
  notWatching: (id, project) => `Dankeschön #${id} (${project}) war nicht vorgemerkt.`,
  listTitle: 'Deine vorgemerkten Dankeschöns',
  listLine: (id, project) => `#${id} in ${project}`,
  none: (watch) =>
    `Keine Vormerkungen. ${watch} reward <ID> schickt dir eine Direktnachricht, wenn ein ausverkauftes Dankeschön wieder da ist.`,
  listFooter:
    'Jede schickt eine Direktnachricht, sobald das Dankeschön wieder verfügbar ist, und endet dann.',
};
