/** Words of reward watch (issue 32, item 3): the back-in-stock and low-stock notices and /lowstock. */
export interface RewardStockCatalog {
  /** The back-in-stock notice's title ("Back in stock: <title>"). */
  readonly restocked: (title: string) => string;
  /** The low-stock notice's title; `left` is formatted already. */
  readonly lowStock: (count: number, left: string, title: string) => string;
  /** "3 left" under a restocked reward with a limit; `left` is formatted already. */
  readonly left: (count: number, left: string) => string;
  /** /lowstock <n> answered; `threshold` is formatted already, `subscribe` the command as typed here. */
  readonly thresholdSet: (count: number, threshold: string, subscribe: string) => string;
  readonly thresholdOff: string;
  /** /lowstock without a number in range; `given` is the user's text, plain. */
  readonly badThreshold: (given: string, min: number, max: number) => string;
  /** /subscriptions: the channel's threshold, or that it has none and the command (`/lowstock`) to set one. */
  readonly thresholdLine: (threshold: string | undefined, command: string) => string;
}

export const rewardStockEn: RewardStockCatalog = {
  restocked: (title) => `🔁 Back in stock: ${title}`,
  lowStock: (count, left, title) => `⏳ ${count === 1 ? 'Last one left' : `Last ${left} left`}: ${title}`,
  left: (_count, left) => `${left} left`,
  thresholdSet: (count, threshold, subscribe) =>
    `Low-stock notices on: this channel is told once when a reward is down to ${threshold} ${count === 1 ? 'item' : 'items'} or fewer (again only after it went back above). It needs the "rewards" notices: ${subscribe} <project> rewards.`,
  thresholdOff: 'Low-stock notices off: this channel is no longer told when a reward runs low.',
  badThreshold: (given, min, max) =>
    `Give a whole number from ${min} to ${max} (the count of a reward left when this channel is told), or "off" (got "${given}").`,
  thresholdLine: (threshold, command) =>
    threshold === undefined
      ? `Low-stock notices: off (${command} <n>)`
      : `Low-stock notices: at ${threshold} left`,
};

export const rewardStockDe: RewardStockCatalog = {
  restocked: (title) => `🔁 Wieder verfügbar: ${title}`,
  lowStock: (count, left, title) => `⏳ ${count === 1 ? 'Nur noch eins' : `Nur noch ${left}`}: ${title}`,
  left: (_count, left) => `noch ${left} verfügbar`,
  thresholdSet: (_count, threshold, subscribe) =>
    `Knapp-Hinweise an: dieser Kanal erfährt einmal, wenn von einem Dankeschön nur noch ${threshold} oder weniger übrig sind (wieder erst, nachdem es mehr waren). Dafür braucht er die Hinweise „rewards“: ${subscribe} <Projekt> rewards.`,
  thresholdOff: 'Knapp-Hinweise aus: dieser Kanal erfährt nicht mehr, wenn ein Dankeschön knapp wird.',
  badThreshold: (given, min, max) =>
    `Bitte eine ganze Zahl von ${min} bis ${max} angeben (so viele übrig, wenn der Kanal es erfährt) oder „off“ (nicht „${given}“).`,
  thresholdLine: (threshold, command) =>
    threshold === undefined
      ? `Knapp-Hinweise: aus (${command} <n>)`
      : `Knapp-Hinweise: bei noch ${threshold} verfügbar`,
};
