import type { CommandDefinition, OptionDefinition } from './command-definitions.js';

/*
 * The members' reward watch of issue 32 (item 3c), beside the other definitions: the registry lists them with the
 * rest, so Discord's registration, the Slack manifest's usage and /help carry them. Not admin-only.
 */

const rewardOption = (required: boolean): OptionDefinition => ({
  name: 'reward',
  description: {
    en: 'Reward id (from /rewards), e.g. 301',
    de: 'ID des Dankeschöns (aus /rewards), z. B. 301',
  },
  type: 'string',
  required,
  // Slack and the console: `reward 301 [project]` in one go (the word "reward" is optional).
  rest: true,
});

/** /watch reward <id>: one direct message when the sold-out reward is back; alone, the member's watches. */
export const watchCommandDefinition: CommandDefinition = {
  name: 'watch',
  description: {
    en: 'Get one direct message when a sold-out reward is available again (alone: your watches)',
    de: 'Direktnachricht, sobald ein ausverkauftes Dankeschön wieder da ist (ohne ID: deine Vormerkungen)',
  },
  options: [rewardOption(false)],
  admin: false,
};

/** /unwatch reward <id>: ends a watch. */
export const unwatchCommandDefinition: CommandDefinition = {
  name: 'unwatch',
  description: { en: 'Stop watching a reward', de: 'Vormerkung eines Dankeschöns beenden' },
  options: [rewardOption(true)],
  admin: false,
};
